/// CIGaussianBlur: approximated by three stacked box blurs (Kovesi's "boxes for gauss" sizes)
/// of a Gaussian with sigma = radius / 2, so the cost does not depend on the radius. `radius` is
/// in pixels of a 1080-line frame (see ``Frame/pixels(fromReference:)``). Edges are clamped.
/// Chroma planes (half resolution) use sigma / 2.
public final class GaussianBlurFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "gaussianBlur", label: "Gaussian Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100,
                                     step: 0.5, identity: 0)])

    /// The largest sigma, in samples, that the stacked boxes take: box radii up to about 120, whose
    /// sums of 8-bit samples (255 · 241³) still fit in 32 bits. Radius 100 at 2160 lines is 100.
    static let maximumSigma = 120.0

    public let radius: Double
    private let scratch = BlurScratch()
    /// The box radii for luma and for chroma, for frames of `boxesHeight` lines.
    private var boxes = (luma: (0, 0, 0), chroma: (0, 0, 0))
    private var boxesHeight = 0

    public init(settings: FilterSettings) {
        radius = settings["radius"]
    }

    /// The radii of the three box blurs of luma and of chroma for `frame`'s size.
    func boxRadii(for frame: Frame) -> (luma: (Int, Int, Int), chroma: (Int, Int, Int)) {
        let sigma = min(frame.pixels(fromReference: radius) / 2, Self.maximumSigma)
        return (Self.boxRadii(sigma: sigma), Self.boxRadii(sigma: sigma / 2))
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

    public func apply(to frame: Frame) {
        guard radius > 0 else { return }
        if boxesHeight != frame.height {
            boxes = boxRadii(for: frame)
            boxesHeight = frame.height
        }
        guard boxes.luma != (0, 0, 0) || boxes.chroma != (0, 0, 0) else { return }
        scratch.prepare(width: frame.width, height: frame.height)
        scratch.stackedBoxBlur(frame.y, radii: boxes.luma)
        scratch.stackedBoxBlur(frame.u, radii: boxes.chroma)
        scratch.stackedBoxBlur(frame.v, radii: boxes.chroma)
    }
}
