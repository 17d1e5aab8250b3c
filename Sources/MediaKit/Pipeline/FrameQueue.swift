import FilterKit
import Foundation

/// A small bounded hand-off of frames between two threads.
///
/// - `.latestWins`: `put` never waits; when full, the oldest waiting frame is pushed out and
///   returned to the caller (to recycle), so a slow consumer sees fresh frames, never a backlog.
/// - `.blocking`: `put` waits for room, so no frame is lost (benchmarks, recording).
///
/// `close()` wakes everyone: `take` then drains what is left and returns nil, `put` refuses.
public final class FrameQueue: @unchecked Sendable {
    public enum Policy: Sendable {
        case latestWins
        case blocking
    }

    public let capacity: Int
    public let policy: Policy
    // Guarded by `condition`.
    private let condition = NSCondition()
    private var frames: [Frame] = []
    private var closed = false

    public init(capacity: Int = 1, policy: Policy) {
        precondition(capacity > 0, "a queue holds at least one frame")
        self.capacity = capacity
        self.policy = policy
        frames.reserveCapacity(capacity)
    }

    /// Hands `frame` over. Returns the frame the consumer will not get — one pushed out
    /// (latest wins), or `frame` itself after `close()` — so the caller can recycle it.
    @discardableResult
    public func put(_ frame: Frame) -> Frame? {
        condition.lock()
        defer { condition.unlock() }
        while policy == .blocking && frames.count == capacity && !closed { condition.wait() }
        if closed { return frame }
        var displaced: Frame? = nil
        if frames.count == capacity { displaced = frames.removeFirst() }
        frames.append(frame)
        condition.broadcast()
        return displaced
    }

    /// The oldest waiting frame; waits for one, for at most `timeout` when given. Nil once closed
    /// and empty, or when the time is up.
    public func take(timeout: Duration? = nil) -> Frame? {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0.seconds) }
        condition.lock()
        defer { condition.unlock() }
        while frames.isEmpty && !closed {
            if let deadline {
                if !condition.wait(until: deadline) && frames.isEmpty { return nil }
            } else {
                condition.wait()
            }
        }
        guard !frames.isEmpty else { return nil }
        let frame = frames.removeFirst()
        condition.broadcast()
        return frame
    }

    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
