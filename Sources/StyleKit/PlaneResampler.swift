/// Resizes a plane — of bytes (a frame's) or of floats (the network's) — to another size and hands
/// each destination row, as floats, to the caller. Separable, the filter of ``AxisWeights``.
///
/// The pass down the columns goes first when it reduces (the frame made small for the network):
/// it works on whole rows, which the compiler vectorises, and leaves the pass across — a gather
/// of taps per sample, scalar — only the destination's few rows. When enlarging, the pass across
/// goes first, on the source's few rows, into a scratch of them, and each destination row is then
/// made down from two of those.
///
/// Everything is allocated when the resampler is made (once per pair of sizes), so resampling
/// allocates nothing. One thread at a time.
final class PlaneResampler {
    let across: AxisWeights
    let down: AxisWeights
    /// Whether the pass down goes first (the plane gets fewer rows).
    private let downFirst: Bool
    /// Down first: one source-wide row made down. Across first: the source's rows resampled
    /// across, `down.source` rows of `across.destination` floats.
    private let scratch: UnsafeMutableBufferPointer<Float>
    /// The destination row being made.
    private let row: UnsafeMutableBufferPointer<Float>

    init(from source: (width: Int, height: Int), to destination: (width: Int, height: Int)) {
        across = AxisWeights(from: source.width, to: destination.width)
        down = AxisWeights(from: source.height, to: destination.height)
        downFirst = destination.height < source.height
        scratch = .allocate(capacity: downFirst ? source.width : destination.width * source.height)
        row = .allocate(capacity: destination.width)
    }

    deinit {
        scratch.deallocate()
        row.deallocate()
    }

    /// Resamples the rows `source(y)` (y in 0..<source height) of samples read as floats by
    /// `value` (a frame's bytes, the network's floats), handing each destination row with its index
    /// to `body`.
    @inline(__always)
    func resample<Sample>(_ source: (Int) -> UnsafePointer<Sample>, as value: (Sample) -> Float,
                          _ body: (Int, UnsafeBufferPointer<Float>) -> Void) {
        if downFirst {
            for y in 0..<down.destination {
                Self.weigh(down, y, width: across.source, rows: { source($0) }, as: value, into: scratch.baseAddress!)
                acrossRow(UnsafePointer(scratch.baseAddress!), into: row.baseAddress!, as: { $0 })
                body(y, UnsafeBufferPointer(row))
            }
        } else {
            let width = across.destination, rows = scratch.baseAddress!
            for y in 0..<down.source { acrossRow(source(y), into: rows + y &* width, as: value) }
            for y in 0..<down.destination {
                Self.weigh(down, y, width: width, rows: { UnsafePointer(rows + $0 &* width) }, as: { $0 }, into: row.baseAddress!)
                body(y, UnsafeBufferPointer(row))
            }
        }
    }

    /// `line`'s samples resampled across into `target` (`across.destination` floats).
    @inline(__always)
    private func acrossRow<Sample>(_ line: UnsafePointer<Sample>, into target: UnsafeMutablePointer<Float>,
                                   as value: (Sample) -> Float) {
        across.weights.withUnsafeBufferPointer { weights in
            across.starts.withUnsafeBufferPointer { starts in
                let taps = across.taps
                for x in 0..<across.destination {
                    var sum: Float = 0
                    let start = starts[x], base = x &* taps
                    for k in 0..<taps { sum += weights[base &+ k] * value(line[start &+ k]) }
                    target[x] = sum
                }
            }
        }
    }

    /// Destination row `y` of `axis`, made down from the rows `rows(i)` (`width` samples each)
    /// into `target`: whole rows at a time.
    @inline(__always)
    private static func weigh<Sample>(_ axis: AxisWeights, _ y: Int, width: Int, rows: (Int) -> UnsafePointer<Sample>,
                                      as value: (Sample) -> Float, into target: UnsafeMutablePointer<Float>) {
        let start = axis.starts[y], taps = axis.taps
        let first = axis.weights[y &* taps], top = rows(start)
        for x in 0..<width { target[x] = first * value(top[x]) }
        for k in 1..<taps {
            let weight = axis.weights[y &* taps &+ k], line = rows(start &+ k)
            for x in 0..<width { target[x] += weight * value(line[x]) }
        }
    }
}
