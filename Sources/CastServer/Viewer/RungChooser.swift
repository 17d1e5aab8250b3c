/// Which rung of its transport's ladder a viewer should be on, from how its frames are delivered:
/// pure, driven by acknowledgements and the clock. One per viewer that lets the server choose
/// (`watch` with `rendition` `auto`).
///
/// Rungs are numbered from 0, the largest. Each acknowledged frame is a sample: its delay (sent to
/// acknowledged, less the TCP round trip) and when it came. Every evaluation looks at the last
/// half second, once the viewer has been on its rung for a moment, and only at what there was to
/// deliver (``RungProduction/expected(in:)``): no frame to deliver is no delivery failure, so a
/// paused session, a paused picture re-rendered in bursts, or a source switch's gap is not a slow
/// link. With nothing made and nothing in flight nothing is judged (and earlier evidence is
/// dropped); with fewer than ``minimumExpected`` frames made the share delivered is not judged:
/// - **congested**: fewer than 3/4 of the frames made were delivered, the oldest unacknowledged
///   frame is older than `max(300 ms, 4 frames)`, or the median delay is over `max(120 ms, 3
///   frames)`. Congested at two evaluations a quarter second apart: one rung down.
/// - **a probe that fails**: in the first 2 s after a climb, one delay `max(50 ms, 2 frames)` over
///   the floor, or a frame unacknowledged for `max(150 ms, 3 frames)`, goes back down at once and
///   doubles `hold` (1.5 s, at most 3 s): a link that cannot take the larger rung is tried rarely,
///   and each try costs a frame or two, not a second of lag.
/// - **healthy**: 9/10 of the frames delivered and the median delay within a frame of the floor
///   (the lowest delay of the last few seconds). Healthy for `hold`: one rung up (a probe). A
///   probe that lasts 2 s resets `hold`, so a link that recovers is climbed within seconds.
/// - **padded probes** (`padsProbes`, for H.264, where a climb costs a forced keyframe, several
///   frames' worth of bits at once): healthy for `hold`, the viewer is first sent padding as if
///   it were on the rung above (``padding``) for ``paddingLength``; still healthy, it climbs; a
///   delay a frame (at least 30 ms) over the floor, or the socket's queue growing, stops the
///   padding at once and doubles `hold` — a link that cannot take the larger rung never sees its
///   keyframe. (Two seconds: link buffers absorb a shorter overshoot.)
struct RungChooser {
    /// One acknowledged frame.
    struct Sample {
        var at: ContinuousClock.Instant
        var delay: Duration
    }

    /// The rung the viewer should be on.
    private(set) var rung: Int
    let rungCount: Int
    private var samples: [Sample] = []
    /// When the viewer came to this rung.
    private var arrived: ContinuousClock.Instant
    private var congestedSince: ContinuousClock.Instant?
    private var healthySince: ContinuousClock.Instant?
    /// The last climb, while it is being tried.
    private var probeStarted: ContinuousClock.Instant?
    private(set) var hold = Self.baseHold
    /// Probe with padding before climbing.
    let padsProbes: Bool
    /// The rung whose rate the viewer is padded up to, and since when (nil: no padding).
    private(set) var padding: (rung: Int, since: ContinuousClock.Instant)?

    static let baseHold = Duration.milliseconds(1500)
    static let maximumHold = Duration.seconds(3)
    static let probeLength = Duration.seconds(2)
    /// How long a padded probe lasts before the climb.
    static let paddingLength = Duration.seconds(2)
    /// How long a rung is watched before it is judged.
    static let settling = Duration.milliseconds(500)
    /// The samples an evaluation looks at: those of the last half second.
    static let window = Duration.milliseconds(500)
    /// The frames a window must have made for the share of them delivered to say anything.
    static let minimumExpected = 2.0

    init(rungCount: Int, padsProbes: Bool = false, now: ContinuousClock.Instant) {
        precondition(rungCount > 0, "a ladder has a rung")
        self.rungCount = rungCount
        self.padsProbes = padsProbes
        rung = 0
        arrived = now
    }

    /// A frame was acknowledged `delay` after it was sent (round trip taken out).
    mutating func delivered(delay: Duration, at instant: ContinuousClock.Instant) {
        samples.append(Sample(at: instant, delay: delay))
        samples.removeAll { $0.at.duration(to: instant) > .seconds(5) }
    }

    /// Looks at the last half second; returns the new rung when the viewer should move. `production`:
    /// what its rung made lately; `oldestUnacknowledged`: how long the oldest frame in flight has
    /// waited (nil: none).
    mutating func evaluate(now: ContinuousClock.Instant, production: RungProduction, frameInterval: Duration,
                           oldestUnacknowledged: Duration?) -> Int? {
        let expected = production.expected(in: Self.window)
        let waiting = oldestUnacknowledged ?? .zero
        guard expected >= 1 || waiting > .zero else {
            congestedSince = nil
            healthySince = nil
            return nil
        }
        guard arrived.duration(to: now) >= Self.settling else { return nil }
        let recent = samples.filter { $0.at.duration(to: now) <= Self.window }.map(\.delay).sorted()
        let floor = samples.map(\.delay).min() ?? .zero
        let lagging = (recent.last ?? .zero) > floor + max(.milliseconds(50), frameInterval * 2)
            || waiting > max(.milliseconds(150), frameInterval * 3)
        if let started = padding?.since {
            // Stricter while padding: the padding, not the frames, should take the queue's growth.
            guard (recent.last ?? .zero) <= floor + max(.milliseconds(30), frameInterval), !lagging else {
                stopPadding()
                return nil
            }
            guard started.duration(to: now) >= Self.paddingLength else { return nil }
            padding = nil
            probeStarted = now
            return move(to: rung - 1, now: now)
        }
        if let probeStarted, probeStarted.duration(to: now) < Self.probeLength, lagging {
            hold = min(hold * 2, Self.maximumHold)
            return move(to: rung + 1, now: now)
        }
        if let started = probeStarted, started.duration(to: now) >= Self.probeLength {
            probeStarted = nil
            hold = Self.baseHold
        }
        let median = recent.isEmpty ? nil : recent[recent.count / 2]
        let delivered = expected >= Self.minimumExpected ? Double(recent.count) / expected : nil
        let congested = (delivered ?? 1) < 0.75 || waiting > max(.milliseconds(300), frameInterval * 4)
            || (median ?? .zero) > max(.milliseconds(120), frameInterval * 3)
        let healthy = (delivered ?? 1) >= 0.9 && (median.map { $0 <= floor + frameInterval } ?? false)
        congestedSince = congested ? congestedSince ?? now : nil
        healthySince = healthy ? healthySince ?? now : nil
        if let since = congestedSince, since.duration(to: now) >= .milliseconds(200), rung + 1 < rungCount {
            return move(to: rung + 1, now: now)
        }
        if let since = healthySince, since.duration(to: now) >= hold, rung > 0 {
            if padsProbes {
                padding = (rung - 1, now)
                return nil
            }
            probeStarted = now
            return move(to: rung - 1, now: now)
        }
        return nil
    }

    /// A padded probe failed (its frames lag, or the socket's queue grows): no more padding, and
    /// the next try waits longer.
    mutating func stopPadding() {
        guard padding != nil else { return }
        padding = nil
        hold = min(hold * 2, Self.maximumHold)
        healthySince = nil
    }

    private mutating func move(to target: Int, now: ContinuousClock.Instant) -> Int? {
        let clamped = min(max(target, 0), rungCount - 1)
        guard clamped != rung else { return nil }
        if clamped > rung { probeStarted = nil }
        rung = clamped
        arrived = now
        padding = nil
        congestedSince = nil
        healthySince = nil
        return clamped
    }
}
