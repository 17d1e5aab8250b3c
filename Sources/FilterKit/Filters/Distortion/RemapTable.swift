/// Where each changed sample of one plane takes its value from under a geometric distortion:
/// for every output row that changes, a span of columns, and for each sample of the span the
/// top-left of its 2×2 source neighbourhood and its bilinear weights in 1/256 steps.
///
/// Source positions are clamped to the plane (edge samples repeat outwards). Samples outside the
/// spans are never written, so the distortion leaves them bit-exact; a sample inside a span that
/// the distortion leaves in place reads itself with zero weights, which is exact too.
///
/// The table is built once per plane size and distortion and read, never changed, frame after
/// frame: the source region is copied into a scratch buffer (``copySource(of:into:)``), then
/// output rows are computed from it (``remap(rows:of:from:)``), in bands if wanted.
struct RemapTable {
    /// The changed samples of one output row: `count` samples from column `x`, whose entries
    /// start at `first`.
    struct Span {
        var x: Int32
        var count: Int32
        var first: Int32
    }

    /// The first output row that may change; `spans[i]` is row `firstRow + i`.
    let firstRow: Int
    private(set) var spans: [Span] = []
    /// Per changed sample: offset of its source neighbourhood's top-left in the scratch copy.
    private(set) var offsets: [UInt32] = []
    /// Per changed sample: horizontal weight in the low byte, vertical in the high byte (Q8).
    private(set) var weights: [UInt16] = []
    /// The plane columns and rows the scratch copy holds; one past the farthest source sample in
    /// each direction, so the right and lower neighbours always exist (repeating the last column
    /// or row at the plane's edges).
    let sourceColumns: Range<Int>
    let sourceRows: Range<Int>

    /// Bytes the scratch copy needs: ``sourceColumns`` × ``sourceRows``.
    var scratchCount: Int { sourceColumns.count * sourceRows.count }

    /// Builds the table for a `width` × `height` plane whose samples are `subsampling` luma pixels
    /// apart (1 for luma, 2 for 4:2:0 chroma). `map` works in luma pixel coordinates.
    init<Map: DistortionMap>(width: Int, height: Int, subsampling: Int, map: Map) {
        precondition(width > 0 && height > 0 && width < 1 << 16 && height < 1 << 16, "plane size out of range")
        let scale = Double(subsampling)
        // The samples whose centres, scale × (index + 0.5), lie in the map's region.
        func samples(from low: Double, to high: Double, count: Int) -> Range<Int> {
            guard low <= high else { return 0..<0 }
            let first = Swift.max(0, Int(Swift.max(-1, (low / scale - 0.5).rounded(.up))))
            let last = Swift.min(count - 1, Int(Swift.min(Double(count), (high / scale - 0.5).rounded(.down))))
            return first <= last ? first..<(last + 1) : 0..<0
        }
        let columns = samples(from: map.region.minX, to: map.region.maxX, count: width)
        let rows = samples(from: map.region.minY, to: map.region.maxY, count: height)
        firstRow = rows.lowerBound

        // Source positions as packed (row << 16 | column) first; made offsets once the source
        // region, and so the scratch layout, is known. A row keeps its samples from the first
        // moved one to the last one; those between that stay read themselves.
        var packed: [UInt32] = []
        packed.reserveCapacity(rows.count * columns.count)
        weights.reserveCapacity(rows.count * columns.count)
        spans.reserveCapacity(rows.count)
        var sourceX = (low: Int.max, high: -1), sourceY = (low: Int.max, high: -1)
        for y in rows {
            let rowStart = packed.count
            var firstMoved = -1, keep = 0
            let centreY = scale * (Double(y) + 0.5)
            for x in columns {
                let centreX = scale * (Double(x) + 0.5)
                let source = map.source(centreX, centreY)
                if source != nil {
                    if firstMoved < 0 { firstMoved = x }
                    keep = packed.count + 1
                } else if firstMoved < 0 {
                    continue
                }
                let (sx, fx) = Self.fixedPoint((source?.x ?? centreX) / scale - 0.5, limit: width - 1)
                let (sy, fy) = Self.fixedPoint((source?.y ?? centreY) / scale - 0.5, limit: height - 1)
                packed.append(UInt32(truncatingIfNeeded: sy << 16 | sx))
                weights.append(UInt16(truncatingIfNeeded: fy << 8 | fx))
                sourceX = (Swift.min(sourceX.low, sx), Swift.max(sourceX.high, sx))
                sourceY = (Swift.min(sourceY.low, sy), Swift.max(sourceY.high, sy))
            }
            // Drop the samples that stay after the last moved one.
            if firstMoved >= 0 {
                packed.removeSubrange(keep...)
                weights.removeSubrange(keep...)
            }
            spans.append(Span(x: Int32(Swift.max(firstMoved, 0)), count: Int32(packed.count - rowStart), first: Int32(rowStart)))
        }
        guard sourceX.high >= 0 else {
            sourceColumns = 0..<0
            sourceRows = 0..<0
            return
        }
        sourceColumns = sourceX.low..<(sourceX.high + 2)
        sourceRows = sourceY.low..<(sourceY.high + 2)
        let stride = sourceColumns.count, origin = sourceY.low * stride + sourceX.low
        offsets = packed.map { p in UInt32(truncatingIfNeeded: Int(p >> 16) * stride + Int(p & 0xFFFF) - origin) }
    }

    /// `value` clamped to 0…`limit` in Q8: the whole sample index and the fraction in 1/256.
    /// Not-a-number (a distortion's singular point) counts as 0.
    private static func fixedPoint(_ value: Double, limit: Int) -> (whole: Int, fraction: Int) {
        let clamped = value >= 0 ? Swift.min(value, Double(limit)) : 0
        let q8 = Int((clamped * 256).rounded())
        return (q8 >> 8, q8 & 0xFF)
    }
}
