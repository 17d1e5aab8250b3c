import Dispatch

/// Splits the work of a filter over `threads` threads (the caller's included) by horizontal
/// bands of the frame. Row-local filters (``RowLocalFilter``) run on each band at once, banded
/// filters (``BandedFilter``) are prepared and then compute their bands at once; other filters
/// run on the whole frame on the calling thread.
///
/// Bands start on even rows and hold at least ``minimumBandRows`` rows, so small frames take
/// fewer bands. Band views are made once per frame buffer and size and then reused: a pool
/// recycles a handful of buffers, so the steady state allocates nothing.
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

    /// Applies `filter` to `frame`, in bands when the filter can be split and more than one
    /// thread is allowed.
    public func apply(_ filter: any FrameFilter, to frame: Frame) {
        let count = bandCount(forHeight: frame.height)
        if count > 1, let rowLocal = filter as? any RowLocalFilter {
            let bands = views(of: frame, count: count)
            DispatchQueue.concurrentPerform(iterations: count) { band in
                rowLocal.apply(to: bands[band])
            }
        } else if count > 1, let banded = filter as? any BandedFilter {
            banded.prepare(frame)
            // BandedFilter's contract: disjoint rows may be computed at once.
            nonisolated(unsafe) let shared = banded
            DispatchQueue.concurrentPerform(iterations: count) { band in
                shared.apply(to: frame, rows: Self.rows(ofBand: band, count: count, height: frame.height))
            }
        } else {
            filter.apply(to: frame)
        }
    }

    /// How many bands a frame of `height` rows is split into.
    func bandCount(forHeight height: Int) -> Int {
        min(threads, max(1, height / Self.minimumBandRows))
    }

    /// The luma rows of band `index` of `count`: consecutive, starting on even rows, covering
    /// `0..<height`.
    static func rows(ofBand index: Int, count: Int, height: Int) -> Range<Int> {
        func boundary(_ i: Int) -> Int { i == count ? height : (height * i / count) & ~1 }
        return boundary(index)..<boundary(index + 1)
    }

    private func views(of frame: Frame, count: Int) -> [Frame] {
        let key = BufferKey(base: frame.y.base, width: frame.width, height: frame.height)
        if let cached = views[key], cached.count == count { return cached }
        if views.count >= Self.cachedBuffers { views.removeAll() }
        let made = (0..<count).map { Frame(rows: Self.rows(ofBand: $0, count: count, height: frame.height), of: frame) }
        views[key] = made
        return made
    }
}
