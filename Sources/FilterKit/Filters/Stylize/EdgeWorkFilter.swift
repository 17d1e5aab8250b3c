/// CIEdgeWork: a black-and-white rendition that looks like a woodblock cutout. A pixel is inked
/// black where its luma is darker than its neighbourhood — the Gaussian blur of sigma `radius`
/// (pixels of a 1080-line frame, see ``HalfResolutionBlur``) — by more than
/// ``inkThreshold`` levels, and left white elsewhere; so dark sides of edges and dark details
/// become ink, flat areas paper. Chroma is neutral. At radius 0 there is no neighbourhood and
/// the frame is all paper.
public final class EdgeWorkFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "edgeWork", label: "Edge Work", category: .stylize,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 3, min: 0, max: 20, step: 0.1)])

    /// How much darker than its neighbourhood a pixel must be to be inked: above the noise of
    /// flat areas in compressed video.
    static let inkThreshold: Int16 = 6

    public let radius: Double
    private let blur = HalfResolutionBlur()
    private let rows = HalfResolutionBlur.Rows()

    public init(settings: FilterSettings) {
        radius = settings["radius"]
    }

    public func apply(to frame: Frame) {
        frame.u.fill(128)
        frame.v.fill(128)
        let sigma = frame.pixels(fromReference: radius)
        guard sigma > 0 else {
            frame.y.fill(255)
            return
        }
        blur.prepare(from: frame, sigma: sigma)
        rows.prepare(width: frame.width)
        ink(frame.y, rows: 0..<frame.height)
    }

    /// Rows `range` of `luma`, after `blur` was prepared from the frame.
    private func ink(_ luma: Plane, rows range: Range<Int>) {
        let width = luma.width, blurred = rows.output.baseAddress!, threshold = Self.inkThreshold
        for y in range {
            blur.row(y, rows: rows)
            let row = luma.row(y)
            for x in 0..<width {
                // Negative (all ones after the shift) where the pixel is inked: branch-free, vectorised.
                let margin = Int16(row[x]) &+ threshold &- Int16(blurred[x])
                row[x] = ~UInt8(truncatingIfNeeded: margin &>> 15)
            }
        }
    }
}
