import FilterKit

/// How many stylizations a second a `style` link gets: the count its ``StyleRefresher`` published,
/// sampled by the frame path, over windows of about a second. Pure: the caller gives the count and
/// the time.
struct RefreshMeter {
    /// The shortest time a rate is measured over.
    static let window: Duration = .seconds(1)
    private var start: (count: Int, at: ContinuousClock.Instant)?
    /// Stylizations a second over the last window; nil before the first window ended.
    private(set) var rate: Double?

    /// Notes that `published` stylizations were made by `now`.
    mutating func note(published: Int, at now: ContinuousClock.Instant) {
        guard let start else {
            self.start = (published, now)
            return
        }
        let elapsed = now - start.at
        guard elapsed >= Self.window else { return }
        rate = Double(published - start.count) / elapsed.seconds
        self.start = (published, now)
    }
}
