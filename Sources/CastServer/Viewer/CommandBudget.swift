import CastProtocol
import FilterKit

/// Rate limit for client commands: a bucket of `capacity` tokens refilled at `perSecond`.
struct CommandBudget {
    static let capacity = 120.0
    static let perSecond = 60.0
    /// Refusals in one episode after which the client is disconnected.
    static let refusalsBeforeClosing = 500
    private var tokens = capacity
    private var updated: ContinuousClock.Instant
    /// Commands refused since the bucket was last full: one episode of going over the budget.
    /// Not reset by the odd token that trickles back, so a sustained flood (which keeps winning
    /// one command every 1/`perSecond` s) still adds up; a client that calms down long enough
    /// for the bucket to refill starts afresh.
    private(set) var refusedInEpisode = 0

    /// A full bucket at `now`.
    init(now: ContinuousClock.Instant = .now) {
        updated = now
    }

    mutating func spend(now: ContinuousClock.Instant = .now) -> Bool {
        tokens = min(Self.capacity, tokens + updated.duration(to: now).seconds * Self.perSecond)
        updated = now
        if tokens >= Self.capacity { refusedInEpisode = 0 }
        guard tokens >= 1 else {
            refusedInEpisode += 1
            return false
        }
        tokens -= 1
        return true
    }

    /// Whether the client has been refused so often in this episode that it is to be closed.
    var exhausted: Bool { refusedInEpisode > Self.refusalsBeforeClosing }
}

extension ClientCommand {
    /// `frameAck`: not counted against the budget, and not acknowledged.
    var isAcknowledgement: Bool {
        if case .connection(.frameAck) = self { return true }
        return false
    }
}
