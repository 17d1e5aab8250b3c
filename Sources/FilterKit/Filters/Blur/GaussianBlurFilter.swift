/// CIGaussianBlur: approximated by three stacked box blurs (Kovesi's "boxes for gauss" sizes)
/// of a Gaussian with sigma = radius / 2, so the cost does not depend on the radius. Edges are
/// clamped. Chroma planes (half resolution) use sigma / 2.
public final class GaussianBlurFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "gaussianBlur", label: "Gaussian Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100,
                                     step: 0.5, identity: 0)])

    public let radius: Double
    /// The radii of the three box blurs for luma and for chroma.
    public let lumaBoxes: (Int, Int, Int)
    public let chromaBoxes: (Int, Int, Int)
    private let scratch = BlurScratch()

    public init(settings: FilterSettings) {
        radius = settings["radius"]
        lumaBoxes = Self.boxRadii(sigma: radius / 2)
        chromaBoxes = Self.boxRadii(sigma: radius / 4)
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
        let radii = (0..<3).map { (($0 < m ? lower : lower + 2) - 1) / 2 }
        return (radii[0], radii[1], radii[2])
    }

    public func apply(to frame: Frame) {
        guard lumaBoxes != (0, 0, 0) || chromaBoxes != (0, 0, 0) else { return }
        scratch.prepare(width: frame.width, height: frame.height)
        scratch.stackedBoxBlur(frame.y, radii: lumaBoxes)
        scratch.stackedBoxBlur(frame.u, radii: chromaBoxes)
        scratch.stackedBoxBlur(frame.v, radii: chromaBoxes)
    }
}
