/// Lets at most one warning through per `interval` and counts the ones held back, so that a
/// damaged stream cannot flood the log. Pure: the caller gives the time. Not thread-safe.
struct WarningRateLimit {
    let interval: Duration
    private var lastPassed: ContinuousClock.Instant?
    private var held = 0

    init(interval: Duration = .seconds(1)) {
        self.interval = interval
    }

    /// Whether a warning at `now` goes out: nil when it is held back; else how many were held
    /// back since the last one that went out.
    mutating func admit(at now: ContinuousClock.Instant) -> Int? {
        if let lastPassed, lastPassed.duration(to: now) < interval {
            held += 1
            return nil
        }
        defer { lastPassed = now; held = 0 }
        return held
    }
}
