/// Nobody watching: a file's clock runs on without decoding ("coasting").
extension Player {
    /// Tells the player whether anything takes its frames (viewers, a recording, a publisher).
    /// With none, a file that plays is not decoded and nothing is put in `output`: its clock runs
    /// on — `position` follows it at `speed`, and the end loops or ends playback as it would —
    /// and commands work as usual. When consumers come back, the frame at the clock's position
    /// is decoded (a frame-accurate seek) and delivered at once, marked as a discontinuity, and
    /// playback goes on from it. A live source, which cannot wait, is read regardless — until
    /// ``PlaybackOptions/idleClose`` closes it (see `Player+OnDemand.swift`); a paused player
    /// decodes nothing anyway. Consumers are assumed present until told otherwise.
    /// Returns true when consumers came back and such a fresh frame is on its way: the last
    /// frame delivered is stale.
    ///
    /// `holdingLiveInput` (default: `present`) says whether those consumers keep a live input
    /// open: a consumer that only wants one picture (a snapshot) takes the frames of an open
    /// input but neither stops the ``PlaybackOptions/idleClose`` timer nor opens a closed input.
    @discardableResult
    public func setConsumersPresent(_ present: Bool, holdingLiveInput: Bool? = nil) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        consumersPresent = present
        liveInputHeld = present && (holdingLiveInput ?? true)
        idleClose?.consumers(present: liveInputHeld, at: .now)
        condition.broadcast()
        return present && coasting
    }

    /// Decode thread: one stretch of playing while nobody watches: no decoding, and no wake-up
    /// until `duration` (where the file ends as it does when decoded: checked unchanged, then
    /// looped — the position back to 0, still without decoding — or ended), a command or the
    /// consumers' return; meanwhile `playbackState`'s `position` follows the clock.
    func coast(_ clock: inout PlaybackClock<ContinuousClock>, speed: Double, speedChanged: Bool,
               duration: Double) {
        let now = clock.clock.now
        if speedChanged || !clock.isAnchored {
            clock = PlaybackClock(clock: clock.clock, speed: speed)
            clock.anchor(playbackState.position, at: now)
        }
        let end = clock.deadline(for: duration, now: now)
        let anchored = clock
        condition.withLock { coastClock = anchored }
        let undisturbed = waitUntil(end, clock.clock, untilConsumersReturn: true)
        let position = min(clock.mediaTime(at: clock.clock.now) ?? duration, duration)
        update {
            coastClock = nil
            $0.position = position
        }
        if undisturbed || position >= duration {
            endOfFile(decoding: false)
        }
        clock.invalidate()  // the end, or a command: decide again, from `position`
    }
}
