/// Which rung of its transport's ladder a viewer should be on, from how its frames are delivered:
/// pure, driven by acknowledgements and the clock. One per viewer that lets the server choose
/// (`watch` with `rendition` `auto`).
///
/// Rungs are numbered from 0, the largest. Each acknowledged frame is a sample: its delay (sent to
/// acknowledged, less the TCP round trip and the time the client says it held the frame) and when
/// it came. The viewer's socket is read at every wake (``socketQueued(_:allowance:at:)``): a lag
/// counts against the link only when the socket held a backlog at half its reads of the last
/// 750 ms (``RungDelivery``) — a busy page or server that lags behind a link that delivered
/// everything keeps its rung. Every evaluation looks at the last
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
///   and each try costs a frame or two, not a second of lag. A climb undone within
///   ``climbTrial`` (a failed probe, or congestion) allows no climb for ``climbRetry``: a steady
///   link moves the viewer at most twice a minute.
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
    /// Whether its socket's queue is read (``socketQueued(_:allowance:at:)``), and the reads of
    /// the last ``linkWindow``: whether each found a backlog.
    private var socketWatched = false
    private var socketSamples: [(at: ContinuousClock.Instant, backlogged: Bool)] = []
    /// The last climb, and the last one undone: moved back down within ``climbTrial``.
    private var climbedAt: ContinuousClock.Instant?
    private(set) var climbUndoneAt: ContinuousClock.Instant?

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
    /// The socket's reads that say whether the link is backlogged: those of the last 750 ms (a
    /// retransmission's 200 ms is less than half of it), at most 256 (reads come with the frames
    /// and the ticks).
    static let linkWindow = Duration.milliseconds(750)
    static let maximumSocketSamples = 256
    /// Bytes in the socket that count as a backlog: a few packets.
    static let backlogFloor = 4096
    /// A move down this soon after a climb undoes it ...
    static let climbTrial = Duration.seconds(20)
    /// ... and the next climb waits this long: a failed climb and its way back are two moves, so a
    /// steady link sees at most two a minute.
    static let climbRetry = Duration.seconds(60)

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

    /// The viewer's socket, read at every wake: `bytes` its link had not delivered yet. Over
    /// `allowance` (a frame and 12 KB: ``RungMoves``) a padded probe stops at once.
    mutating func socketQueued(_ bytes: Int, allowance: Double, at instant: ContinuousClock.Instant) {
        socketWatched = true
        socketSamples.removeAll { $0.at.duration(to: instant) > Self.linkWindow }
        if socketSamples.count < Self.maximumSocketSamples { socketSamples.append((instant, bytes > Self.backlogFloor)) }
        if Double(bytes) > allowance { stopPadding() }
    }

    /// Whether the link is to blame for what lags: its socket held a backlog (over
    /// ``backlogFloor``) at half the reads of the last ``linkWindow`` or more. A link that cannot
    /// carry the rung keeps it backlogged; a loaded machine's loopback only now and then (a late
    /// acknowledgement, a retransmission). Without reads everything that lags is the link's.
    private func linkBacklogged(_ now: ContinuousClock.Instant) -> Bool {
        guard socketWatched else { return true }
        let recent = socketSamples.filter { $0.at.duration(to: now) <= Self.linkWindow }
        return !recent.isEmpty && recent.filter(\.backlogged).count * 2 >= recent.count
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
        let delivery = RungDelivery(samples: samples, now: now, expected: expected, waiting: waiting,
                                    frameInterval: frameInterval, linkBacklogged: linkBacklogged(now))
        if let started = padding?.since { return padded(since: started, delivery, now: now) }
        if let probeStarted, probeStarted.duration(to: now) < Self.probeLength, delivery.lagging {
            hold = min(hold * 2, Self.maximumHold)
            return move(to: rung + 1, now: now)
        }
        if let started = probeStarted, started.duration(to: now) >= Self.probeLength {
            probeStarted = nil
            hold = Self.baseHold
        }
        congestedSince = delivery.congested ? congestedSince ?? now : nil
        healthySince = delivery.healthy ? healthySince ?? now : nil
        if let since = congestedSince, since.duration(to: now) >= .milliseconds(200), rung + 1 < rungCount {
            return move(to: rung + 1, now: now)
        }
        if let since = healthySince, since.duration(to: now) >= hold, rung > 0, mayClimb(now) {
            if padsProbes {
                padding = (rung - 1, now)
                return nil
            }
            probeStarted = now
            return move(to: rung - 1, now: now)
        }
        return nil
    }

    /// A padded probe running since `started`: stopped when the frames lag, a climb once it lasted
    /// ``paddingLength``.
    private mutating func padded(since started: ContinuousClock.Instant, _ delivery: RungDelivery,
                                 now: ContinuousClock.Instant) -> Int? {
        guard !delivery.laggingUnderPadding else {
            stopPadding()
            return nil
        }
        guard started.duration(to: now) >= Self.paddingLength else { return nil }
        padding = nil
        probeStarted = now
        return move(to: rung - 1, now: now)
    }

    /// No climb (nor padded probe) for ``climbRetry`` after a climb was undone: a link that
    /// cannot keep the larger rung is not flapped between the two.
    private func mayClimb(_ now: ContinuousClock.Instant) -> Bool {
        climbUndoneAt.map { $0.duration(to: now) >= Self.climbRetry } ?? true
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
        if clamped > rung {
            probeStarted = nil
            if let climbedAt, climbedAt.duration(to: now) < Self.climbTrial { climbUndoneAt = now }
        } else {
            climbedAt = now
        }
        rung = clamped
        arrived = now
        padding = nil
        congestedSince = nil
        healthySince = nil
        return clamped
    }
}
