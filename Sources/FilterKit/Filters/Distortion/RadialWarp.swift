/// The shape of a radial distortion (twirl, bump, pinch): inside a disk around a centre, each
/// point takes its colour from its offset from the centre multiplied by a complex factor — a
/// turn and a scaling — that depends only on the point's distance from the centre and on one
/// strength parameter. ``RadialDistortionFilter`` does the rest.
public protocol RadialWarp {
    static var name: String { get }
    static var label: String { get }
    /// The strength parameter; at its identity the filter leaves frames untouched.
    static var strength: ParameterDescriptor { get }
    /// The factor (real, imaginary) for a point at `u` × radius from the centre, 0 ≤ u < 1.
    /// Must be finite.
    static func factor(at u: Double, strength: Double) -> (re: Double, im: Double)
}
