import Dispatch
import Synchronization

/// Splits the work of a filter over `threads` threads (the caller's included). Row-local
/// filters (``RowLocalFilter``) run on horizontal bands of the frame at once; pass filters
/// (``PassFilter``, banded filters among them) run each pass's parts at once, pass after pass;
/// other filters run on the whole frame on the calling thread.
///
/// Bands start on even rows and hold at least ``minimumBandRows`` rows, so small frames take
/// fewer bands (and pass filters as many parts). Band views are made once per frame buffer and
/// size and then reused: a pool recycles a handful of buffers, so the steady state allocates
/// nothing.
///
/// Belongs to one thread (the pipeline's), like the filters it applies.
public final class BandScheduler {
    public let threads: Int
    static let minimumBandRows = 32
    /// At most this many frame buffers keep their views; more (a pool that does not recycle)
    /// starts the cache over.
    static let cachedBuffers = 8

    private struct BufferKey: Hashable {
        let base: UnsafeMutablePointer<UInt8>
        let width: Int
        let height: Int
    }
    private var views: [BufferKey: [Frame]] = [:]

    /// `threads` is clamped to at least 1.
    public init(threads: Int) {
        self.threads = max(1, threads)
    }

    /// Applies `filter` to `frame`, split when `split` is set, the filter can be split and more
    /// than one thread is allowed.
    public func apply(_ filter: any FrameFilter, to frame: Frame, split: Bool = true) {
        let count = split ? bandCount(forHeight: frame.height) : 1
        if count > 1, let rowLocal = filter as? any RowLocalFilter {
            let bands = views(of: frame, count: count)
            runParts(count) { band in rowLocal.apply(to: bands[band]) }
        } else if count > 1, let passes = filter as? any PassFilter {
            // PassFilter's contract: the parts of one pass may run at once.
            nonisolated(unsafe) let shared = passes
            for pass in 0..<passes.preparePasses(for: frame, parts: count) {
                runParts(count) { part in shared.run(pass: pass, part: part, of: count, on: frame) }
            }
        } else {
            filter.apply(to: frame)
        }
    }

    /// How many bands a frame of `height` rows is split into.
    func bandCount(forHeight height: Int) -> Int {
        threads == 1 ? 1 : min(threads &* Self.partsPerThread, max(1, height / Self.minimumBandRows))
    }

    /// Parts per thread: a thread that starts late (the other core busy decoding) leaves its
    /// share to the others instead of holding up the pass.
    static let partsPerThread = 4

    /// Runs `body` for parts `0..<parts` on `threads` threads (the caller's included), each taking
    /// the next part not yet taken until none is left.
    private func runParts(_ parts: Int, _ body: @Sendable (Int) -> Void) {
        let next = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: min(threads, parts)) { _ in
            while case let part = next.wrappingAdd(1, ordering: .relaxed).oldValue, part < parts {
                body(part)
            }
        }
    }

    private func views(of frame: Frame, count: Int) -> [Frame] {
        let key = BufferKey(base: frame.y.base, width: frame.width, height: frame.height)
        if let cached = views[key], cached.count == count { return cached }
        if views.count >= Self.cachedBuffers { views.removeAll() }
        let made = (0..<count).map { Frame(rows: Partition.rows($0, of: count, height: frame.height), of: frame) }
        views[key] = made
        return made
    }
}
