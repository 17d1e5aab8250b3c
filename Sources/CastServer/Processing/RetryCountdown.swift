/// The countdown to a failed live source's next attempt: the one clock of the placeholder's
/// "retrying in N s" and of the page's badge. Both show the seconds left to `retryAt` rounded
/// up, and both change at the same instants — the whole seconds before `retryAt` — the picture
/// because a placeholder is drawn at each (``nextChange(after:)``), the page because it counts
/// down from `state.retryIn` (``remaining(at:)``) on its own clock. Pure.
struct RetryCountdown: Equatable {
    let retryAt: ContinuousClock.Instant

    /// Seconds left at `now`, never negative: `state.retryIn`.
    func remaining(at now: ContinuousClock.Instant) -> Double {
        max(0, now.duration(to: retryAt).seconds)
    }

    /// The whole seconds shown at `now`: those left, rounded up.
    func shown(at now: ContinuousClock.Instant) -> Int {
        Int(remaining(at: now).rounded(.up))
    }

    /// When ``shown(at:)`` next changes after `now`: the next whole second before `retryAt`
    /// (within a second); nil once `retryAt` is reached.
    func nextChange(after now: ContinuousClock.Instant) -> ContinuousClock.Instant? {
        let shown = shown(at: now)
        guard shown > 0 else { return nil }
        return retryAt - .seconds(shown - 1)
    }
}
