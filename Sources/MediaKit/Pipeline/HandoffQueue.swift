import FilterKit
import Foundation

/// A small bounded hand-off of items (frames, decoded pictures) between two threads.
///
/// - `.latestWins`: `put` never waits; when full, the oldest waiting item is pushed out and
///   returned to the caller (to recycle), so a slow consumer sees fresh frames, never a backlog.
/// - `.blocking`: `put` waits for room, so no item is lost (benchmarks, recording).
///
/// `close()` wakes everyone: `take` then drains what is left and returns nil, `put` refuses.
public final class HandoffQueue<Item: Sendable>: @unchecked Sendable {
    public enum Policy: Sendable {
        case latestWins
        case blocking
    }

    public let capacity: Int
    public let policy: Policy
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var items: [Item] = []
    private var closed = false
    /// `poke()` calls not yet seen by a waiting `take`.
    private var pokes = 0

    public init(capacity: Int = 1, policy: Policy) {
        precondition(capacity > 0, "a queue holds at least one frame")
        self.capacity = capacity
        self.policy = policy
        items.reserveCapacity(capacity)
    }

    /// Hands `item` over. Returns the item the consumer will not get — one pushed out
    /// (latest wins), or `item` itself after `close()` — so the caller can recycle it.
    @discardableResult
    public func put(_ item: Item) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while policy == .blocking && items.count == capacity && !closed { condition.wait() }
        if closed { return item }
        var displaced: Item? = nil
        if items.count == capacity { displaced = items.removeFirst() }
        items.append(item)
        condition.broadcast()
        return displaced
    }

    /// How many items wait now (a consumer that is behind sees one waiting as soon as it looks).
    public var waiting: Int {
        condition.lock()
        defer { condition.unlock() }
        return items.count
    }

    /// The oldest waiting item; waits for one, for at most `timeout` when given. Nil once closed
    /// and empty, or when the time is up.
    public func take(timeout: Duration? = nil) -> Item? {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0.seconds) }
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed {
            if pokes > 0 {
                pokes = 0
                return nil
            }
            if let deadline {
                if !condition.wait(until: deadline) && items.isEmpty { return nil }
            } else {
                condition.wait()
            }
        }
        guard !items.isEmpty else { return nil }
        let item = items.removeFirst()
        condition.broadcast()
        return item
    }

    /// Makes a waiting (or the next) `take` on an empty queue return nil at once, so that the
    /// consumer can look at other work.
    public func poke() {
        condition.lock()
        pokes += 1
        condition.broadcast()
        condition.unlock()
    }

    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Whether `close()` was called (items may still wait to be taken).
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}

/// The frame hand-off between pipeline stages.
public typealias FrameQueue = HandoffQueue<Frame>
