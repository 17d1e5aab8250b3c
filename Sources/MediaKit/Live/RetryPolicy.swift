/// When to try a failed live source again: after 1, 2, 4, 8 s, then every 10 s (doubling from
/// `initial`, capped at `maximum`); a frame from the source resets it to the start.
///
/// A pure value: the caller counts failures with ``nextDelay()`` and calls ``reset()`` on success.
public struct RetryPolicy: Sendable, Equatable {
    public let initial: Duration
    public let maximum: Duration
    /// Failures since the last reset.
    public private(set) var failures = 0

    public init(initial: Duration = .seconds(1), maximum: Duration = .seconds(10)) {
        precondition(initial > .zero && maximum >= initial, "retry delays must be positive and initial ≤ maximum")
        self.initial = initial
        self.maximum = maximum
    }

    /// Counts one more failure and returns how long to wait before the next attempt.
    public mutating func nextDelay() -> Duration {
        var delay = initial
        var doublings = 0
        // Doubling stops at the cap, so the count can grow for ever without overflowing.
        while doublings < failures && delay < maximum {
            delay *= 2
            doublings += 1
        }
        failures += 1
        return min(delay, maximum)
    }

    /// The source delivered a frame: the next failure waits `initial` again.
    public mutating func reset() {
        failures = 0
    }
}
