import MediaKit

/// When every viewer is due a `state` without a command having changed anything: the playback
/// moves on (position, a recording's elapsed time and size), or the source goes offline or
/// back online.
struct StateBroadcastSchedule {
    /// How often a `state` goes out while playing or recording.
    static let interval = Duration.milliseconds(500)
    private var lastBroadcast: ContinuousClock.Instant
    /// The position at the last broadcast. A seek takes effect on the decode thread after the
    /// command's own `state` went out, so a paused session broadcasts again once the position
    /// has moved (nothing else would send the new position while paused).
    private var lastPosition: Double?
    /// Whether the source was online at the last broadcast: going offline or back online is
    /// announced at once.
    private var lastOnline = true
    /// Whether it was playing at the last broadcast: playback that stops by itself (reverse
    /// reaching the first frame, a file's end) is announced at once.
    private var lastPlaying: Bool?

    init(now: ContinuousClock.Instant) {
        lastBroadcast = now
    }

    /// Whether a broadcast is due at `now` for `playback`, with a recording running or not.
    func isDue(_ playback: PlaybackState, recording: Bool, now: ContinuousClock.Instant) -> Bool {
        if playback.isOnline != lastOnline { return true }
        if let lastPlaying, playback.isPlaying != lastPlaying { return true }
        // While recording, the elapsed time and size move even when paused.
        if playback.isPlaying || recording { return lastBroadcast.duration(to: now) >= Self.interval }
        return playback.position != lastPosition
    }

    /// A `state` of `playback` went out at `now` (for whatever reason).
    mutating func broadcast(_ playback: PlaybackState, at now: ContinuousClock.Instant) {
        lastBroadcast = now
        lastPosition = playback.position
        lastOnline = playback.isOnline
        lastPlaying = playback.isPlaying
    }
}
