/// CIEdgeWork: a black-and-white rendition that looks like a woodblock cutout. A pixel is inked
/// black where its luma is darker than its neighbourhood — the Gaussian blur of sigma `radius`
/// (pixels of a 1080-line frame, see ``HalfResolutionBlur``) — by more than
/// ``inkThreshold`` levels, and left white elsewhere; so dark sides of edges and dark details
/// become ink, flat areas paper. Chroma is neutral. At radius 0 there is no neighbourhood and
/// the frame is all paper. Passes: the blur's, then the ink by bands of rows.
public final class EdgeWorkFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "edgeWork", label: "Edge Work", category: .stylize,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 3, min: 0, max: 20, step: 0.1)])

    /// How much darker than its neighbourhood a pixel must be to be inked: above the noise of
    /// flat areas in compressed video.
    static let inkThreshold: Int16 = 6

    public let radius: Double
    private let blur = HalfResolutionBlur()
    /// Whether the current frame has a neighbourhood to compare with (a blur of some width).
    private var hasBlur = false

    public init(settings: FilterSettings) {
        radius = settings["radius"]
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        let sigma = frame.pixels(fromReference: radius)
        hasBlur = sigma > 0
        guard hasBlur else { return 1 }
        blur.preparePasses(for: frame, sigma: sigma, parts: parts)
        return HalfResolutionBlur.passes + 1
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        if hasBlur && pass < HalfResolutionBlur.passes {
            return blur.run(pass: pass, part: part, of: parts, on: frame)
        }
        let rows = Partition.rows(part, of: parts, height: frame.height), chromaRows = Partition.chromaRows(under: rows)
        for j in chromaRows {
            frame.u.row(j).update(repeating: 128, count: frame.u.width)
            frame.v.row(j).update(repeating: 128, count: frame.v.width)
        }
        guard hasBlur else {
            for y in rows { frame.y.row(y).update(repeating: 255, count: frame.width) }
            return
        }
        ink(frame.y, rows: rows, part: part)
    }

    /// Rows `range` of `luma`, after the blur's passes.
    private func ink(_ luma: Plane, rows range: Range<Int>, part: Int) {
        let width = luma.width, threshold = Self.inkThreshold
        for y in range {
            let blurred = blur.row(y, part: part), row = luma.row(y)
            for x in 0..<width {
                // Negative (all ones after the shift) where the pixel is inked: branch-free, vectorised.
                let margin = Int16(row[x]) &+ threshold &- Int16(blurred[x])
                row[x] = ~UInt8(truncatingIfNeeded: margin &>> 15)
            }
        }
    }
}
