/// Resizes a plane — of bytes (a frame's) or of floats (the network's) — to another size: each
/// source row is resampled across into a float scratch, then each destination row is made down
/// from those rows and handed to the caller as floats. Separable, the filter of ``AxisWeights``.
///
/// Everything is allocated when the resampler is made (once per pair of sizes), so resampling
/// allocates nothing. One thread at a time.
final class PlaneResampler {
    let across: AxisWeights
    let down: AxisWeights
    /// The rows resampled across: `down.source` rows of `across.destination` floats.
    private let scratch: UnsafeMutableBufferPointer<Float>
    /// The destination row being made.
    private let row: UnsafeMutableBufferPointer<Float>

    init(from source: (width: Int, height: Int), to destination: (width: Int, height: Int)) {
        across = AxisWeights(from: source.width, to: destination.width)
        down = AxisWeights(from: source.height, to: destination.height)
        scratch = .allocate(capacity: destination.width * source.height)
        row = .allocate(capacity: destination.width)
    }

    deinit {
        scratch.deallocate()
        row.deallocate()
    }

    /// Resamples the rows `source(y)` (y in 0..<source height) of samples read as floats by
    /// `value` (a frame's bytes, the network's floats), handing each destination row with its index
    /// to `body`.
    func resample<Sample>(_ source: (Int) -> UnsafePointer<Sample>, as value: (Sample) -> Float,
                          _ body: (Int, UnsafeBufferPointer<Float>) -> Void) {
        across.weights.withUnsafeBufferPointer { weights in
            across.starts.withUnsafeBufferPointer { starts in
                let taps = across.taps, width = across.destination
                for y in 0..<down.source {
                    let line = source(y), target = scratch.baseAddress! + y &* width
                    for x in 0..<width {
                        var sum: Float = 0
                        let start = starts[x], base = x &* taps
                        for k in 0..<taps { sum += weights[base &+ k] * value(line[start &+ k]) }
                        target[x] = sum
                    }
                }
            }
        }
        downRows(body)
    }

    private func downRows(_ body: (Int, UnsafeBufferPointer<Float>) -> Void) {
        let width = across.destination, taps = down.taps
        let rows = scratch.baseAddress!, out = row.baseAddress!
        for y in 0..<down.destination {
            let start = down.starts[y]
            let first = down.weights[y &* taps]
            let top = rows + start &* width
            for x in 0..<width { out[x] = first * top[x] }
            for k in 1..<max(1, taps) {
                let weight = down.weights[y &* taps &+ k]
                let line = rows + (start &+ k) &* width
                for x in 0..<width { out[x] += weight * line[x] }
            }
            body(y, UnsafeBufferPointer(row))
        }
    }
}
