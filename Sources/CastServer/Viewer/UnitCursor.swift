/// Which access unit of an H.264 rendition a viewer gets next: pure, from the last unit it was
/// sent and where the rendition's ``AccessUnitLog`` stands.
///
/// Order of the rules: a viewer that is continuing (its next unit is still held) gets the next
/// unit — unless it is more than `lagLimit` units behind: then it starts again at a newer
/// keyframe (a slow viewer skips ahead rather than falling ever further behind), or, with none
/// to skip to, goes on in order and needs one made; a viewer
/// starting (or whose next unit is gone) starts at the newest keyframe when that is at most
/// `freshFor` old, and otherwise needs one to be made.
enum UnitCursor {
    enum Choice: Equatable {
        case send(UInt64)
        /// Far behind with no newer keyframe to skip to: the next unit, and one has to be made.
        case sendFarBehind(UInt64)
        /// Up to date: nothing newer yet.
        case wait
        /// No fresh keyframe to start at: one has to be made for this viewer.
        case needKeyframe
    }

    /// `lastSent`: the last unit of this rendition the viewer was sent (0: none).
    static func next(lastSent: UInt64, log: AccessUnitLog.Position, now: ContinuousClock.Instant,
                     lagLimit: UInt64, freshFor: Duration) -> Choice {
        let continuing = lastSent > 0 && lastSent + 1 >= log.oldest && lastSent <= log.latest
        if continuing {
            guard log.latest - lastSent > lagLimit else { return lastSent < log.latest ? .send(lastSent + 1) : .wait }
            return log.keyframe > lastSent ? .send(log.keyframe) : .sendFarBehind(lastSent + 1)
        }
        if log.keyframe > 0, let made = log.keyframeTime, made.duration(to: now) <= freshFor { return .send(log.keyframe) }
        return .needKeyframe
    }
}
