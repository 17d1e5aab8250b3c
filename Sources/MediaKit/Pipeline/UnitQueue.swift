import Foundation

/// Encoded pictures from a producer's thread to one consumer's: copies, in order, at most
/// `capacity` waiting, from a keyframe on — the queue behind a writer that takes a shared
/// encode (``AccessUnitFeed``) and behind a shared camera's decoder (``BrowserSource``).
///
/// Units cannot be left out one by one — each depends on the one before — so when the queue is
/// full (the consumer fell behind) every waiting unit is dropped, the new one too, and units are
/// refused until the next keyframe: the consumer's picture then jumps to the present rather than
/// lag or break. (Every JPEG is a keyframe, so for them this only drops the backlog.)
///
/// Threads: `offer` never waits; `next`, `recycle` from the consumer's thread; the rest from any.
final class UnitQueue: @unchecked Sendable {
    /// What became of an offered unit.
    enum Offer: Equatable {
        case queued
        /// Refused: the queue waits for a keyframe (after a loss, or before the first), or is closed.
        case refused
        /// The queue was full: these many units were dropped (the waiting ones and this one).
        case overflowed(Int)
    }

    private let capacity: Int
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var queued: [CopiedUnit] = []
    private var spare: [CopiedUnit] = []
    private var waitingForKeyframe = true
    private var closed = false

    init(capacity: Int) {
        precondition(capacity > 0, "a queue holds at least one unit")
        self.capacity = capacity
    }

    /// Queues a copy of `bytes` (its time in the caller's unit).
    func offer(_ bytes: UnsafeRawBufferPointer, keyframe: Bool, time: Int64) -> Offer {
        condition.withLock {
            guard !closed, !(waitingForKeyframe && !keyframe) else { return .refused }
            waitingForKeyframe = false
            let copy = spare.popLast() ?? CopiedUnit()
            copy.fill(from: bytes)
            copy.isKeyframe = keyframe
            copy.time = time
            copy.queuedAt = .now
            queued.append(copy)
            condition.broadcast()
            guard queued.count > capacity else { return .queued }
            let dropped = queued.count
            dropAll()
            return .overflowed(dropped)
        }
    }

    /// How many units wait.
    var count: Int { condition.withLock { queued.count } }

    /// The oldest waiting unit, waiting until `deadline` at most; nil when none came, or once
    /// closed (waiting units are then never given out).
    func next(before deadline: Date) -> CopiedUnit? {
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !closed {
            if !condition.wait(until: deadline) && queued.isEmpty { return nil }
        }
        return closed ? nil : queued.removeFirst()
    }

    /// A unit from ``next(before:)`` is done with.
    func recycle(_ unit: CopiedUnit) {
        condition.withLock { if spare.count < capacity { spare.append(unit) } }
    }

    /// Drops the waiting units and takes none until a keyframe (a consumer starting over).
    func restart() {
        condition.withLock { dropAll() }
    }

    /// Wakes a waiting `next`; every later one returns nil at once, every offer is refused.
    func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Under the lock.
    private func dropAll() {
        spare += queued.prefix(max(0, capacity - spare.count))
        queued.removeAll()
        waitingForKeyframe = true
    }
}
