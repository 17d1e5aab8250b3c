import Foundation
import Telemetry

/// One access unit copied out of a ``SharedEncode``, the consumer's until it is recycled.
final class CopiedUnit: @unchecked Sendable {
    /// Grown as needed, kept from unit to unit.
    private var storage = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var count = 0
    var isKeyframe = false
    /// A time in its user's unit: for a writer, when it came (ms since the feed started).
    var time: Int64 = 0

    deinit { storage.deallocate() }

    /// The unit's Annex B bytes, valid until it is filled again.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: storage[..<count]) }

    func fill(from unit: UnsafeRawBufferPointer) {
        // Room for the padding FFmpeg's readers may look into past the end.
        if unit.count + 64 > storage.count {
            storage.deallocate()
            storage = .allocate(byteCount: unit.count * 2 + 64, alignment: 16)
        }
        storage.copyMemory(from: unit)
        count = unit.count
    }
}

/// The access units of a ``SharedEncode`` to a writer's own thread (a publish stream that takes
/// a rendition's encode): copies, in order, in a bounded queue, from the first keyframe on.
///
/// Units cannot be left out one by one — each depends on the one before — so when the queue is
/// full (the writer fell behind: a slow server) every waiting unit is dropped and counted, and
/// units are refused until the next keyframe, which the feed asks for. The writer's stream then
/// jumps, as a viewer's does, and never shows a broken picture.
///
/// Threads: `offer` on the encode's thread (it never waits); the rest from the writer's thread.
final class AccessUnitFeed: @unchecked Sendable {
    let started = ContinuousClock.now
    let source: any SharedEncode
    private let capacity: Int
    private let droppedTotal: Counter?
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queued: [CopiedUnit] = []
    private var spare: [CopiedUnit] = []
    private var waitingForKeyframe = true
    private var token: Int?
    private var closed = false
    /// Units dropped by overflows.
    private var dropped = 0

    /// Units of `source`, at most `capacity` waiting; drops are also counted in `droppedTotal`.
    init(source: any SharedEncode, capacity: Int, droppedTotal: Counter? = nil) {
        precondition(capacity > 0, "a feed holds at least one unit")
        self.source = source
        self.capacity = capacity
        self.droppedTotal = droppedTotal
    }

    /// Starts taking units (from the next keyframe, asked for now); the encode runs meanwhile.
    func attach() {
        condition.withLock { waitingForKeyframe = true }
        let token = source.attach { [weak self] unit in self?.offer(unit) }
        condition.withLock { self.token = token }
        source.requestKeyframe()
    }

    /// Stops taking units and drops those waiting: the encode may stop if nobody else watches it.
    func detach() {
        let token = condition.withLock { () -> Int? in
            defer { self.token = nil }
            spare += queued
            queued.removeAll()
            return self.token
        }
        if let token { source.detach(token) }
    }

    /// The encode's thread: queues a copy of `unit`.
    func offer(_ unit: EncodedAccessUnit) {
        let overflowed = condition.withLock { () -> Bool in
            guard token != nil, !(waitingForKeyframe && !unit.isKeyframe) else { return false }
            waitingForKeyframe = false
            let copy = spare.popLast() ?? CopiedUnit()
            copy.fill(from: unit.bytes)
            copy.isKeyframe = unit.isKeyframe
            copy.time = Int64((started.duration(to: .now).seconds * 1000).rounded())
            queued.append(copy)
            condition.broadcast()
            guard queued.count > capacity else { return false }
            droppedTotal?.increment(by: UInt64(queued.count))
            dropped += queued.count
            spare += queued
            queued.removeAll()
            waitingForKeyframe = true
            return true
        }
        if overflowed { source.requestKeyframe() }
    }

    /// The oldest waiting unit, waiting at most `timeout`; nil when none came, or once closed.
    func next(timeout: Duration) -> CopiedUnit? {
        let deadline = Date(timeIntervalSinceNow: timeout.seconds)
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !closed {
            if !condition.wait(until: deadline) && queued.isEmpty { return nil }
        }
        return closed ? nil : queued.removeFirst()
    }

    /// Wakes a waiting `next`, and every later one returns nil at once: the writer is stopping.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Units dropped because the writer fell behind.
    var droppedUnits: Int { condition.withLock { dropped } }

    /// A unit from ``next(timeout:)`` is done with.
    func recycle(_ unit: CopiedUnit) {
        condition.withLock { if spare.count < capacity { spare.append(unit) } }
    }
}
