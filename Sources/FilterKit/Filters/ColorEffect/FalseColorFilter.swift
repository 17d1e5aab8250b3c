/// CIFalseColor: luma blends linearly from `color0` (black) to `color1` (white).
public final class FalseColorFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "falseColor", label: "False Color", category: .colorEffect,
        params: ParameterDescriptor.colour("color0", label: "Dark", default: (0.3, 0, 0))
            + ParameterDescriptor.colour("color1", label: "Light", default: (1, 0.9, 0.8)))

    private let palette: LumaPalette

    public init(settings: FilterSettings) {
        let (c0, c1) = (settings.colour("color0"), settings.colour("color1"))
        palette = LumaPalette { t in
            (c0.r + (c1.r - c0.r) * t, c0.g + (c1.g - c0.g) * t, c0.b + (c1.b - c0.b) * t)
        }
    }

    public func apply(to frame: Frame) { palette.apply(to: frame) }
}
