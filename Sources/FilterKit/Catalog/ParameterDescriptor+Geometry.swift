/// The geometry parameters the distortion and cell filters share, in the convention of ``Frame/pixels(fromReference:)``
/// and ``Frame/point(atFractionX:y:)``: radii in pixels of a 1080-line frame, centres as fractions
/// of the frame (the middle by default).
extension ParameterDescriptor {
    /// The reach of a radial distortion; at 0 it changes nothing.
    static func radius(default defaultValue: Double) -> ParameterDescriptor {
        ParameterDescriptor(name: "radius", label: "Radius", default: defaultValue, min: 0, max: 4000, sliderMin: 0,
                            sliderMax: 1000, step: 1, identity: 0)
    }

    static let centerX = ParameterDescriptor(name: "centerX", label: "Center X", default: 0.5, min: 0, max: 1,
                                             step: 0.001)
    static let centerY = ParameterDescriptor(name: "centerY", label: "Center Y", default: 0.5, min: 0, max: 1,
                                             step: 0.001)
}
