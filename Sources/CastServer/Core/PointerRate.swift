/// At most ``perSecond`` pointer moves a second from one sender are relayed: those over it are
/// dropped silently (the next one that fits shows where the pointer is). A sliding window of one
/// second over the last ``perSecond`` relayed moves. Pure; the clock is the caller's.
struct PointerRate {
    static let perSecond = 30

    /// When the last relayed moves were, oldest first (at most ``perSecond``).
    private var relayed: [ContinuousClock.Instant] = []

    /// Whether a move at `now` is relayed (it then counts).
    mutating func admit(now: ContinuousClock.Instant) -> Bool {
        if relayed.count == Self.perSecond {
            guard relayed[0].duration(to: now) >= .seconds(1) else { return false }
            relayed.removeFirst()
        }
        relayed.append(now)
        return true
    }
}
