import CFFmpeg

/// The pictures a ``Decoder`` decoded around the playhead, kept as references to the decoder's
/// buffers (never copied), so that a step back, or a step over pictures decoded already, costs a
/// conversion instead of a decode from the keyframe.
///
/// Pictures are known by their timestamps, and runs of neighbours by each picture's successor
/// (noted as the decoder delivers them in order): a picture is given for a time only when it is
/// there exactly, or when the picture cached before that time names it as its successor — a gap
/// (pictures evicted, or never decoded) is never taken for a neighbour. Bounded by bytes: over
/// the bound, the picture farthest from the playhead goes. No allocation once its frames exist:
/// an evicted picture's `AVFrame` takes the next one.
///
/// Decode thread only, like its decoder.
final class DecodedPictureCache {
    /// The most bytes of pictures held (0: none is kept), and where the figures go.
    let capacityBytes: Int
    private let budget: StepCacheBudget
    private struct Entry {
        let frame: UnsafeMutablePointer<AVFrame>
        let bytes: Int
        /// The timestamp of the picture decoded right after this one, once known.
        var successor: Int64?
    }
    private var entries: [Int64: Entry] = [:]
    /// The timestamps held, in order.
    private var order: [Int64] = []
    private var bytes = 0 {
        didSet { budget.heldBytes.set(bytes) }
    }
    /// `AVFrame`s of evicted pictures, unreferenced, for the next ones.
    private var spare: [UnsafeMutablePointer<AVFrame>] = []
    /// The picture decoded last in the current run (nil after a flush): the next one's predecessor.
    private var runLast: Int64?
    /// Where the playhead is: eviction keeps what is near it.
    private var playhead: Int64 = 0
    /// Pictures given from the cache, and asked for but not there.
    var hits: UInt64 { budget.hits.value }
    var misses: UInt64 { budget.misses.value }

    /// Keeps up to `budget`'s bytes (none when `keeps` is false: a live input cannot step back).
    init(budget: StepCacheBudget, keeps: Bool) {
        self.budget = budget
        capacityBytes = keeps ? budget.capacityBytes : 0
    }

    deinit {
        for entry in entries.values { var frame: UnsafeMutablePointer<AVFrame>? = entry.frame; av_frame_free(&frame) }
        for frame in spare { var frame: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&frame) }
    }

    /// Bytes held now, and in how many pictures.
    var heldBytes: Int { bytes }
    var count: Int { order.count }

    /// The decoder was flushed (a seek): the next picture starts a new run.
    func runBroken() { runLast = nil }

    /// `picture`, just decoded at `timestamp`, is kept (a reference) as the successor of the
    /// picture decoded before it in this run.
    func keep(_ picture: UnsafeMutablePointer<AVFrame>, at timestamp: Int64) {
        defer { runLast = timestamp }
        keep(picture, at: timestamp, after: runLast)
    }

    /// `picture`, decoded ahead of need at `timestamp` by another decoder (a run of its own, not
    /// this decoder's current one), is kept as the successor of the picture at `previous`.
    func keep(_ picture: UnsafeMutablePointer<AVFrame>, at timestamp: Int64, after previous: Int64?) {
        guard capacityBytes > 0 else { return }
        if let previous, previous < timestamp { entries[previous]?.successor = timestamp }
        guard entries[timestamp] == nil else { return }
        let size = Self.bytes(of: picture)
        guard size <= capacityBytes else { return }
        let frame = spare.popLast() ?? av_frame_alloc()!
        guard av_frame_ref(frame, picture) >= 0 else { spare.append(frame); return }
        entries[timestamp] = Entry(frame: frame, bytes: size, successor: nil)
        order.insert(timestamp, at: insertionIndex(of: timestamp))
        bytes += size
        evictBeyondCapacity()
    }

    /// The first picture at or after `target`, if it is known to be held, and its timestamp; it
    /// becomes the playhead.
    func picture(atOrAfter target: Int64) -> (timestamp: Int64, frame: UnsafeMutablePointer<AVFrame>)? {
        let found = entries[target].map { (target, $0) } ?? linkedSuccessor(before: target)
        guard let (timestamp, entry) = found else {
            budget.misses.increment()
            return nil
        }
        budget.hits.increment()
        playhead = timestamp
        return (timestamp, entry.frame)
    }

    /// The picture after the one at `timestamp`, if both are held and known to be neighbours.
    func successor(of timestamp: Int64) -> (timestamp: Int64, frame: UnsafeMutablePointer<AVFrame>)? {
        guard let next = entries[timestamp]?.successor, let entry = entries[next] else { return nil }
        budget.hits.increment()
        playhead = next
        return (next, entry.frame)
    }

    /// Lets every picture go (playing on: the pictures stepped over are behind).
    func release() {
        for entry in entries.values {
            av_frame_unref(entry.frame)
            spare.append(entry.frame)
        }
        entries.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        bytes = 0
    }

    /// Notes where the playhead is (a picture delivered by decoding).
    func moved(to timestamp: Int64) { playhead = timestamp }

    /// Whether the picture at `timestamp` is held.
    func holds(_ timestamp: Int64) -> Bool { entries[timestamp] != nil }

    /// The earliest picture of the run of neighbours the playhead is in; nil when the playhead's
    /// picture is not held.
    func runStart() -> Int64? {
        guard entries[playhead] != nil else { return nil }
        var index = insertionIndex(of: playhead)
        while index > 0, entries[order[index - 1]]?.successor == order[index] { index -= 1 }
        return order[index]
    }

    /// Whether one more picture (the size of the playhead's) fits within the bound; with
    /// `droppingAfterPlayhead` (playing backward: those were shown) the pictures after the playhead
    /// are let go, the latest first, to make room. Never drops the playhead or what is before it.
    func hasRoom(droppingAfterPlayhead: Bool) -> Bool {
        let size = entries[playhead]?.bytes ?? 0
        while droppingAfterPlayhead, bytes + size > capacityBytes, let last = order.last, last > playhead {
            evict(order.removeLast())
        }
        return bytes + size <= capacityBytes
    }

    private func linkedSuccessor(before target: Int64) -> (Int64, Entry)? {
        let index = insertionIndex(of: target)
        guard index > 0, let next = entries[order[index - 1]]?.successor, next >= target, let entry = entries[next] else { return nil }
        return (next, entry)
    }

    /// Playing backward: the pictures after the playhead are behind it, and go first.
    var keepsEarlier = false

    /// Drops the pictures farthest from the playhead until the bound holds; playing backward,
    /// those after it first (the latest first: they were shown), then the earliest (needed last).
    /// Never the latest of those before the playhead: with a GOP that does not fit beside what
    /// is held, they are the very pictures the next steps back need.
    private func evictBeyondCapacity() {
        while bytes > capacityBytes, let first = order.first, let last = order.last {
            let latest = keepsEarlier ? last > playhead : playhead - first < last - playhead
            evict(latest ? order.removeLast() : order.removeFirst())
        }
    }

    /// Lets the picture at `victim` go (already taken out of `order`).
    private func evict(_ victim: Int64) {
        guard let entry = entries.removeValue(forKey: victim) else { return }
        av_frame_unref(entry.frame)
        spare.append(entry.frame)
        bytes -= entry.bytes
    }

    /// Where `timestamp` goes in `order` (the index of the first one not below it).
    private func insertionIndex(of timestamp: Int64) -> Int {
        var low = 0, high = order.count
        while low < high {
            let middle = (low + high) / 2
            if order[middle] < timestamp { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The bytes a decoded picture's planes take.
    private static func bytes(of picture: UnsafeMutablePointer<AVFrame>) -> Int {
        var total = 0
        withUnsafeBytes(of: picture.pointee.buf) { buffers in
            for buffer in buffers.bindMemory(to: UnsafeMutablePointer<AVBufferRef>?.self) {
                if let buffer { total += Int(buffer.pointee.size) }
            }
        }
        return total
    }
}
