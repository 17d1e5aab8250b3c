import FilterKit

/// What a ``Player``'s decode loop carries from one step to the next. Decode thread only.
struct DecodeLoopState {
    /// Paces the frames; loses its anchor on every jump (a seek, a pause, a new source).
    var clock: PlaybackClock<ContinuousClock>
    /// A frame decoded but not yet due when a command came: the next one to show unless the
    /// command makes it stale (a seek, a switch, coasting).
    var waitingFrame: Frame?
    /// The time of the last frame delivered: the clock restarts from it. Nil until the current
    /// source (or its reconnection) delivered one, which a paused player still shows.
    var shownTime: Double?
    /// The loop's in as the decode loop last saw it: a new one decides whether its pictures are
    /// decoded ahead (``Player/keepPicturesForLoop(_:)``).
    var loopIn: Double?

    init(speed: Double) {
        clock = PlaybackClock(clock: ContinuousClock(), speed: speed)
    }

    /// Nothing has been delivered from the current source (or since it reconnected).
    var needsFrame: Bool { shownTime == nil }

    /// A new timeline (another source, a reconnected stream): nothing shown, no anchor.
    mutating func restartTimeline() {
        clock.invalidate()
        shownTime = nil
        loopIn = nil
    }

    /// Takes the waiting frame, if any, leaving none.
    mutating func takeWaitingFrame() -> Frame? {
        defer { waitingFrame = nil }
        return waitingFrame
    }
}
