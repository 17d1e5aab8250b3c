import Synchronization

/// Events a second over the last second, counted from any thread: frames an output made.
final class FrameRateMeter: Sendable {
    private let window = Mutex(FrameRate())

    func record(_ instant: ContinuousClock.Instant = .now) { window.withLock { $0.record(instant) } }

    var perSecond: Double { window.withLock { $0.perSecond(now: .now) } }
}

/// Counts events in a sliding one-second window.
struct FrameRate {
    private var times: [ContinuousClock.Instant] = []

    mutating func record(_ instant: ContinuousClock.Instant) {
        if times.count >= 240 { times.removeFirst(times.count - 239) }
        times.append(instant)
    }

    mutating func perSecond(now: ContinuousClock.Instant) -> Double {
        times.removeAll { $0.duration(to: now) > .seconds(1) }
        return Double(times.count)
    }
}
