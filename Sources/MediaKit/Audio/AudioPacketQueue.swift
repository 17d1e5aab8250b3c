import CFFmpeg
import Foundation
import Synchronization
import Telemetry

/// The hand-off of demuxed audio from the decode thread to the audio thread: a fixed pool of
/// `capacity` packets, allocated once, and the items waiting in order. The producer is the
/// current source's: its ``AudioDemux`` on the decode thread, or a shared camera's
/// ``BrowserAudio`` on the network thread (one at a time; "decode thread" below means it).
///
/// The decode thread never waits: a packet finds a free one of the pool or is dropped (counted in
/// ``packetsDropped``). A restart (a seek, a new source, listening again) empties the queue first —
/// what waited belongs to the old position — so it holds at most `capacity` packets and one marker.
/// Thread-safe; ``take()`` blocks the audio thread until an item or ``close()``.
public final class AudioPacketQueue: @unchecked Sendable {
    enum Item {
        /// A packet of the pool: give it back with ``recycle(_:)``.
        case packet(UnsafeMutablePointer<AVPacket>)
        /// Start over with these parameters (nil: the same stream), dropping sound before `at` seconds.
        case restart(AudioStreamParameters?, at: Double?)
        /// The stream ended: drain what is buffered.
        case end
    }

    public let capacity: Int
    /// Packets dropped because the pool was empty: the audio thread is behind.
    public let packetsDropped = Counter()
    /// Whether anybody listens: while false the decode thread drops audio packets unread.
    private let wanted = Atomic<Bool>(false)
    private let heard = Atomic<Bool>(false)
    /// The tempo's bit pattern; 0: silent.
    private let tempoBits = Atomic<UInt64>(1.0.bitPattern)
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var free: [UnsafeMutablePointer<AVPacket>]
    private var items: [Item] = []
    private var closed = false

    public init(capacity: Int = 96) {
        self.capacity = capacity
        free = (0..<capacity).map { _ in av_packet_alloc() }
        items.reserveCapacity(capacity + 2)
    }

    deinit {
        for item in items { if case .packet(let packet) = item { free.append(packet) } }
        for packet in free {
            var doomed: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&doomed)
        }
    }

    /// Whether the decode thread should pass audio on (somebody listens).
    public var isWanted: Bool { wanted.load(ordering: .relaxed) }

    public func setWanted(_ isWanted: Bool) { wanted.store(isWanted, ordering: .relaxed) }

    /// Whether pages play the sound now — not only a recording or a published stream, which put
    /// late sound in its place themselves: what a shared camera's pictures wait for (``BrowserAudio``).
    public var isHeard: Bool { heard.load(ordering: .relaxed) }

    public func setHeard(_ isHeard: Bool) { heard.store(isHeard, ordering: .relaxed) }

    /// How fast the sound plays (the playhead's rate, pitch kept; 1: as it is), or nil: silent
    /// (a rate the sound does not keep up with, or backward). The audio thread reads it before
    /// every item.
    public var tempo: Double? {
        let bits = tempoBits.load(ordering: .relaxed)
        return bits == 0 ? nil : Double(bitPattern: bits)
    }

    public func setTempo(_ tempo: Double?) {
        precondition(tempo.map { $0 > 0 && $0.isFinite } ?? true, "a tempo is positive")
        tempoBits.store(tempo?.bitPattern ?? 0, ordering: .relaxed)
    }

    /// Decode thread: moves `packet`'s contents into a free packet of the pool and queues it;
    /// when none is free the packet is left as it is (the caller unrefs it) and counted.
    func put(movingFrom packet: UnsafeMutablePointer<AVPacket>) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed, let slot = free.popLast() else {
            if !closed { packetsDropped.increment() }
            return
        }
        av_packet_move_ref(slot, packet)
        items.append(.packet(slot))
        condition.signal()
    }

    /// Decode thread: what waits is dropped, and the audio thread starts over.
    func restart(_ parameters: AudioStreamParameters?, at time: Double?) {
        enqueue(.restart(parameters, at: time), clearing: true)
    }

    /// Decode thread: the stream ended.
    func end() { enqueue(.end, clearing: false) }

    private func enqueue(_ item: Item, clearing: Bool) {
        condition.lock()
        defer { condition.unlock() }
        guard !closed else { return }
        if clearing { dropQueued() }
        items.append(item)
        condition.signal()
    }

    private func dropQueued() {
        for item in items {
            if case .packet(let packet) = item {
                av_packet_unref(packet)
                free.append(packet)
            }
        }
        items.removeAll(keepingCapacity: true)
    }

    /// Audio thread: the next item, waiting for one unless `waiting` is false; nil once closed
    /// (or, not waiting, when none is there).
    func take(waiting: Bool = true) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while waiting && items.isEmpty && !closed { condition.wait() }
        guard !closed, !items.isEmpty else { return nil }
        return items.removeFirst()
    }

    /// Audio thread: a packet from ``take()`` goes back to the pool.
    func recycle(_ packet: UnsafeMutablePointer<AVPacket>) {
        av_packet_unref(packet)
        condition.lock()
        free.append(packet)
        condition.unlock()
    }

    /// Wakes the audio thread for good; what waits is dropped.
    public func close() {
        condition.lock()
        closed = true
        dropQueued()
        condition.broadcast()
        condition.unlock()
    }
}
