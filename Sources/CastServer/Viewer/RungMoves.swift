import CastProtocol

/// The moves of a viewer that lets the server choose its rendition (`watch` with `rendition`
/// `auto`): the ``RungChooser`` that judges its delivery, an H.264 move waiting for the new
/// rendition's keyframe, and the padding of a padded probe.
struct RungMoves {
    /// nil for a viewer that named its rendition: it is never moved.
    private var chooser: RungChooser?
    /// An H.264 rendition the viewer moves to at that rendition's first keyframe made since `pendingSince`.
    private(set) var pending: Int?
    private var pendingSince: ContinuousClock.Instant?
    /// A padded probe's padding: bytes owed, accrued until `since`.
    private var padding: (owed: Double, since: ContinuousClock.Instant?) = (0, nil)

    /// A new `watch` at `now`: a chooser over `rungCount` rungs unless `pinned`; no move pending.
    mutating func restart(pinned: Bool, rungCount: Int, padsProbes: Bool, now: ContinuousClock.Instant) {
        chooser = pinned ? nil : RungChooser(rungCount: rungCount, padsProbes: padsProbes, now: now)
        pending = nil
        pendingSince = nil
    }

    /// Every quarter second: the rendition of `ladder` (the viewer's transport's renditions,
    /// largest first) its delivery allows, when that changed. For H.264 the move is noted as
    /// pending (``switchIfReady(_:)``); a JPEG viewer moves at once: `moveNow` is the target.
    mutating func adapt(watching: Watching, ladder: [Int], production: RungProduction, frameInterval: Duration,
                        oldestUnacknowledged: Duration?, now: ContinuousClock.Instant) -> (changed: Bool, moveNow: Int?) {
        guard var chooser else { return (false, nil) }
        defer { self.chooser = chooser }
        guard let rung = chooser.evaluate(now: now, production: production, frameInterval: frameInterval,
                                          oldestUnacknowledged: oldestUnacknowledged) else { return (false, nil) }
        let target = ladder[rung]
        if watching.transport == .jpeg { return (true, target) }
        pending = target == watching.rendition ? nil : target
        pendingSince = now
        return (true, nil)
    }

    /// The pending rendition once it has a keyframe made since the decision, where the viewer's
    /// decoder starts over (not an older one: the units since then would come as a burst).
    mutating func switchIfReady(_ supply: FrameSupply) -> Int? {
        guard let target = pending, hasKeyframeSinceDecision(target, supply) else { return nil }
        pending = nil
        return target
    }

    func hasKeyframeSinceDecision(_ rendition: Int, _ supply: FrameSupply) -> Bool {
        guard let log = supply.units[rendition], log.keyframe > 0, let made = log.keyframeTime, let pendingSince else { return false }
        return made >= pendingSince
    }

    /// Whether the viewer is being sent padding (the transport then reports its socket's queue).
    var isPadding: Bool { chooser?.padding != nil }

    /// The rung probed (its index in the viewer's ladder), during a padded probe.
    var probedRung: Int? { chooser?.padding?.rung }

    /// Padding owed at `rate` bytes a second (the difference between the caps of the rung probed
    /// and the viewer's own), written in pieces of at most 16 KB once 2 KB are owed — with the
    /// frame wake-ups, about one piece a frame; nil when none is due or no probe runs.
    mutating func paddingDue(rate: Double?, now: ContinuousClock.Instant) -> Int? {
        guard let rate, isPadding else {
            padding = (0, nil)
            return nil
        }
        if let since = padding.since { padding.owed = min(padding.owed + rate * since.duration(to: now).seconds, 64 * 1024) }
        padding.since = now
        return padding.owed >= 2048 ? Int(min(padding.owed, 16 * 1024)) : nil
    }

    /// `bytes` of padding were written.
    mutating func paddingSent(_ bytes: Int) {
        padding.owed = max(0, padding.owed - Double(bytes))
    }

    /// Whether the server chooses this viewer's rendition (its socket is then read at every wake).
    var adapts: Bool { chooser != nil }

    /// Its socket holds `bytes` not yet delivered by the link (nil: unknown): what tells a slow
    /// link from a busy page (``RungChooser``); more than `allowance` stops a padded probe at once.
    mutating func socketQueued(_ bytes: Int?, allowance: Double, now: ContinuousClock.Instant) {
        guard let bytes else { return }
        chooser?.socketQueued(bytes, allowance: allowance, at: now)
    }
}

extension RungMoves {
    /// A frame's acknowledgement came `delay` after it was sent (what the chooser judges).
    mutating func delivered(delay: Duration, at now: ContinuousClock.Instant) {
        chooser?.delivered(delay: delay, at: now)
    }
}
