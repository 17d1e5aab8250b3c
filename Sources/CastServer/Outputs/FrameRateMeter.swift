import Synchronization

/// Events a second over the last second, counted from any thread: frames an output made.
final class FrameRateMeter: Sendable {
    private let window = Mutex(FrameRate())

    func record(_ instant: ContinuousClock.Instant = .now) { window.withLock { $0.record(instant) } }

    var perSecond: Double { window.withLock { $0.perSecond(now: .now) } }

    /// What the output made lately, as the rung adaptation judges delivery against.
    var production: RungProduction { window.withLock { RungProduction($0, now: .now) } }
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

    /// Events in the last `span` (at most a second) before `now`.
    func count(within span: Duration, now: ContinuousClock.Instant) -> Int {
        times.reduce(0) { $0 + ($1.duration(to: now) <= span ? 1 : 0) }
    }
}

/// What one rendition made lately: frames a second over the last second, and frames in the
/// ``RungChooser``'s window (its last half second). A viewer's delivery is judged against the
/// frames there were to deliver — none while paused, a burst while a paused picture is
/// re-rendered, a gap while another source opens — not against a rate of the past second.
struct RungProduction: Equatable, Sendable {
    var perSecond: Double
    var inWindow: Int

    init(perSecond: Double, inWindow: Int) {
        self.perSecond = perSecond
        self.inWindow = inWindow
    }

    /// `rate`'s events as of `now`.
    init(_ rate: FrameRate, now: ContinuousClock.Instant) {
        perSecond = Double(rate.count(within: .seconds(1), now: now))
        inWindow = rate.count(within: RungChooser.window, now: now)
    }

    /// A rendition that made frames steadily at `perSecond` (the window's share of them).
    static func steady(_ perSecond: Double) -> RungProduction {
        RungProduction(perSecond: perSecond, inWindow: Int((perSecond * RungChooser.window.seconds).rounded()))
    }

    /// The frames there were to deliver in a window of `span`: those made in it, but no more than
    /// the last second's rate gives — frames made just now are not acknowledged yet (when
    /// production starts again after a gap, the frames of its first moments are in flight).
    func expected(in span: Duration) -> Double {
        min(Double(inWindow), perSecond * span.seconds)
    }
}
