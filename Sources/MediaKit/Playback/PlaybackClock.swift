import FilterKit

/// Maps media time to wall-clock deadlines for real-time playback at a given speed.
///
/// The clock is anchored at one (media time, instant) pair; a frame at media time `t` is due
/// `(t − anchor) / speed` after the anchor instant. Re-anchor after a seek, a pause, a loop, or
/// when a live source has fallen too far behind.
public struct PlaybackClock<C: Clock> where C.Duration == Duration {
    public let clock: C
    /// Playback rate: 1 = real time, 2 = twice as fast.
    public private(set) var speed: Double
    private var anchor: (media: Double, instant: C.Instant)?

    public init(clock: C, speed: Double = 1) {
        precondition(speed > 0 && speed.isFinite, "speed must be positive")
        self.clock = clock
        self.speed = speed
    }

    /// Whether the clock has an anchor (it loses it on `invalidate`).
    public var isAnchored: Bool { anchor != nil }

    /// Frames from now on are timed relative to `mediaTime` being shown at `instant`.
    public mutating func anchor(_ mediaTime: Double, at instant: C.Instant) {
        anchor = (mediaTime, instant)
    }

    /// Forgets the anchor: the next frame re-anchors (after a pause or a seek).
    public mutating func invalidate() {
        anchor = nil
    }

    /// The media time due at `instant` (the inverse of `deadline`); nil without an anchor.
    public func mediaTime(at instant: C.Instant) -> Double? {
        guard let anchor else { return nil }
        return anchor.media + anchor.instant.duration(to: instant).seconds * speed
    }

    /// Changes the rate, keeping the frame at `mediaTime` due at `instant`.
    public mutating func setSpeed(_ speed: Double, keeping mediaTime: Double, at instant: C.Instant) {
        precondition(speed > 0 && speed.isFinite, "speed must be positive")
        self.speed = speed
        if anchor != nil { anchor = (mediaTime, instant) }
    }

    /// When the frame at `mediaTime` is due; anchors the clock at `now` if it has no anchor yet.
    public mutating func deadline(for mediaTime: Double, now: C.Instant) -> C.Instant {
        guard let anchor else {
            self.anchor = (mediaTime, now)
            return now
        }
        let offset = (mediaTime - anchor.media) / speed
        return anchor.instant.advanced(by: .nanoseconds(Int64((offset * 1e9).rounded())))
    }
}
