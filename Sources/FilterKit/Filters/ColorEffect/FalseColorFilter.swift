/// CIFalseColor: luma blends linearly from `color0` (black) to `color1` (white).
public final class FalseColorFilter: RowLocalFilter {
    public static let descriptor = FilterDescriptor(
        name: "falseColor", label: "False Color", category: .colorEffect,
        params: [
            ParameterDescriptor(name: "color0Red", label: "Dark red", default: 0.3, min: 0, max: 1, step: 0.01),
            ParameterDescriptor(name: "color0Green", label: "Dark green", default: 0, min: 0, max: 1, step: 0.01),
            ParameterDescriptor(name: "color0Blue", label: "Dark blue", default: 0, min: 0, max: 1, step: 0.01),
            ParameterDescriptor(name: "color1Red", label: "Light red", default: 1, min: 0, max: 1, step: 0.01),
            ParameterDescriptor(name: "color1Green", label: "Light green", default: 0.9, min: 0, max: 1, step: 0.01),
            ParameterDescriptor(name: "color1Blue", label: "Light blue", default: 0.8, min: 0, max: 1, step: 0.01),
        ])

    private let palette: LumaPalette

    public init(settings: FilterSettings) {
        let c0 = (r: settings["color0Red"], g: settings["color0Green"], b: settings["color0Blue"])
        let c1 = (r: settings["color1Red"], g: settings["color1Green"], b: settings["color1Blue"])
        palette = LumaPalette { t in
            (c0.r + (c1.r - c0.r) * t, c0.g + (c1.g - c0.g) * t, c0.b + (c1.b - c0.b) * t)
        }
    }

    public func apply(to frame: Frame) { palette.apply(to: frame) }
}
