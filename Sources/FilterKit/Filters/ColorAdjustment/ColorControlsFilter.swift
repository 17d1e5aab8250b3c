/// CIColorControls on YUV planes: `brightness` adds to luma (× 255), `contrast` scales luma
/// around mid-grey (after the brightness shift, as Core Image does), and `saturation` scales
/// each chroma deviation from 128. All three are affine maps of one plane in fixed point.
public final class ColorControlsFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "colorControls", label: "Color Controls", category: .colorAdjustment,
        params: [
            ParameterDescriptor(name: "saturation", label: "Saturation", default: 1.5, min: 0, max: 2,
                                step: 0.01, identity: 1),
            ParameterDescriptor(name: "brightness", label: "Brightness", default: 0, min: -1, max: 1,
                                step: 0.01, identity: 0),
            ParameterDescriptor(name: "contrast", label: "Contrast", default: 1.2, min: 0.25, max: 4,
                                step: 0.01, identity: 1),
        ])

    private let luma: AffineMap
    private let chroma: AffineMap

    public init(settings: FilterSettings) {
        let saturation = settings["saturation"], brightness = settings["brightness"], contrast = settings["contrast"]
        // y′ = (y + 255·brightness − 128)·contrast + 128
        luma = AffineMap(gain: contrast, pivot: 128, shift: 255 * brightness * contrast)
        chroma = AffineMap(gain: saturation, pivot: 128, shift: 0)
    }

    public func apply(to frame: Frame) {
        luma.apply(to: frame.y)
        chroma.apply(to: frame.u)
        chroma.apply(to: frame.v)
    }
}
