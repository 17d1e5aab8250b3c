/// CIColorMonochrome: maps luma to shades of `color` — black up to the colour at its own luma,
/// then on to white, so luma is kept — blended with the input by `intensity` (0 is bit-exact).
public final class ColorMonochromeFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "monochrome", label: "Monochrome", category: .colorEffect,
        params: ParameterDescriptor.colour(default: (0.6, 0.45, 0.3)) + [
            ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: 0, max: 1,
                                step: 0.01, identity: 0),
        ])

    private let palette: LumaPalette

    public init(settings: FilterSettings) {
        let c = settings.colour()
        let knee = 0.299 * c.r + 0.587 * c.g + 0.114 * c.b
        palette = LumaPalette(intensity: settings["intensity"]) { grey in
            if knee < 1e-6 { return (grey, grey, grey) }
            if grey <= knee { let t = grey / knee; return (c.r * t, c.g * t, c.b * t) }
            let t = knee >= 1 ? 1 : (grey - knee) / (1 - knee)
            return (c.r + (1 - c.r) * t, c.g + (1 - c.g) * t, c.b + (1 - c.b) * t)
        }
    }

    public func apply(to frame: Frame) { palette.apply(to: frame) }
}
