/// When a live input that nothing takes frames from is closed (``PlaybackOptions/idleClose``):
/// `after` the last consumer left, unless one came back meanwhile. Pure: its owner passes the
/// instants (the ``Player``'s decode thread `ContinuousClock.now`, tests instants of their own).
struct IdleClose: Sendable, Equatable {
    /// How long the input stays open with nothing taking its frames.
    let after: Duration
    /// When the consumers left; nil while they are present (they are assumed present at first).
    private(set) var leftAt: ContinuousClock.Instant?

    init(after: Duration) { self.after = after }

    /// Consumers are `present` (or not) since `now`; a departure already counted keeps its time.
    mutating func consumers(present: Bool, at now: ContinuousClock.Instant) {
        if present {
            leftAt = nil
        } else if leftAt == nil {
            leftAt = now
        }
    }

    /// When the input is to be closed; nil while consumers are present.
    var deadline: ContinuousClock.Instant? { leftAt.map { $0 + after } }

    /// Whether the input is to be closed at `now`.
    func isDue(at now: ContinuousClock.Instant) -> Bool { deadline.map { now >= $0 } ?? false }
}
