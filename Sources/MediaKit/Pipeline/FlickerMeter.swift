import FilterKit

/// How much a sequence of frames changes from one frame to the next: the mean absolute difference
/// of the luma of each consecutive pair, averaged over the pairs. Measured on a source and on what
/// a filter made of it, the ratio of the two says whether the filter flickers more than the
/// source's own motion and grain explain (issue 27: at most 1.5 for `style`).
///
/// The first frame only keeps its luma; a frame of another size starts over. One thread at a time;
/// the luma kept is allocated at the first frame (and at a size change), not per frame.
public final class FlickerMeter {
    private var previous: [UInt8] = []
    private var size = (width: 0, height: 0)
    private var total = 0.0
    /// The pairs measured.
    public private(set) var pairs = 0

    public init() {}

    /// The mean over the pairs so far of their mean absolute luma difference (0…255); 0 before a pair.
    public var meanDifference: Double { pairs == 0 ? 0 : total / Double(pairs) }

    /// Measures `frame` against the frame before it and keeps its luma for the next.
    public func measure(_ frame: Frame) {
        let plane = frame.y, width = plane.width
        let fresh = size != (plane.width, plane.height)
        if fresh {
            size = (plane.width, plane.height)
            previous = [UInt8](repeating: 0, count: width * plane.height)
        }
        var sum = 0
        previous.withUnsafeMutableBufferPointer { kept in
            for row in 0..<plane.height {
                let line = plane.row(row), old = kept.baseAddress! + row &* width
                for x in 0..<width {
                    sum &+= abs(Int(line[x]) &- Int(old[x]))
                    old[x] = line[x]
                }
            }
        }
        guard !fresh else { return }
        total += Double(sum) / Double(width * plane.height)
        pairs += 1
    }
}
