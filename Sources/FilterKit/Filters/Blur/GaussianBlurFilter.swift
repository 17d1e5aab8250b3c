/// CIGaussianBlur: approximated by three stacked box blurs (Kovesi's "boxes for gauss" sizes)
/// of a Gaussian with sigma = radius / 2, so the cost does not depend on the radius. `radius` is
/// in pixels of a 1080-line frame (see ``Frame/pixels(fromReference:)``). Edges are clamped.
/// Chroma planes (half resolution) use sigma / 2. Runs as passes over bands of rows, then of
/// columns (see ``SeparableBlur``).
public final class GaussianBlurFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "gaussianBlur", label: "Gaussian Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100,
                                     step: 0.5, identity: 0)])

    /// The largest sigma, in samples, that the stacked boxes take: box radii up to about 120, whose
    /// sums of 8-bit samples (255 · 241³) still fit in 32 bits. Radius 100 at 2160 lines is 100.
    static let maximumSigma = 120.0

    public let radius: Double
    public let passes: FilterPasses

    public init(settings: FilterSettings) {
        radius = settings["radius"]
        passes = FilterPasses(SeparableBlur(radius: radius) { radius, frame in
            let radii = Self.boxRadii(radius, for: frame)
            return (BoxStack(radii.luma.0, radii.luma.1, radii.luma.2),
                    BoxStack(radii.chroma.0, radii.chroma.1, radii.chroma.2))
        })
    }

    /// The radii of the three box blurs of luma and of chroma for `frame`'s size.
    func boxRadii(for frame: Frame) -> (luma: (Int, Int, Int), chroma: (Int, Int, Int)) { Self.boxRadii(radius, for: frame) }

    private static func boxRadii(_ radius: Double, for frame: Frame) -> (luma: (Int, Int, Int), chroma: (Int, Int, Int)) {
        let sigma = min(frame.pixels(fromReference: radius) / 2, maximumSigma)
        return (boxRadii(sigma: sigma), boxRadii(sigma: sigma / 2))
    }

    /// The radii of three box blurs whose stack has a variance close to sigma²: `m` boxes of the
    /// largest odd width `wl` ≤ √(12σ²/3 + 1), the others of width `wl + 2`.
    static func boxRadii(sigma: Double) -> (Int, Int, Int) {
        guard sigma > 0 else { return (0, 0, 0) }
        let n = 3.0
        var lower = Int((12 * sigma * sigma / n + 1).squareRoot())
        if lower % 2 == 0 { lower -= 1 }
        let wl = Double(lower)
        let m = Int(((12 * sigma * sigma - n * wl * wl - 4 * n * wl - 3 * n) / (-4 * wl - 4)).rounded())
        func radius(_ index: Int) -> Int { ((index < m ? lower : lower + 2) - 1) / 2 }
        return (radius(0), radius(1), radius(2))
    }
}
