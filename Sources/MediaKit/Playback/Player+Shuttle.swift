import FilterKit

/// Review playback: a rate that may be negative (the playhead moving backward, frame by frame
/// from the decoder's step cache, which fills a GOP at a time behind it) and an in/out loop that
/// playback wraps around. Commands from any thread; the steps on the decode thread.
extension Player {
    /// Sets how fast the playhead moves: seconds of the source a second, finite and not 0
    /// (whoever takes it from outside checks its range); negative plays backward. The sound
    /// plays at `soundTempo` (its pitch kept), or is silent (nil).
    public func setRate(_ rate: Double, soundTempo: Double?) {
        precondition(rate.isFinite && rate != 0, "a rate is finite and not 0, got \(rate)")
        audioQueue?.setTempo(soundTempo)
        update { $0.speed = rate; speedChanged = true }
    }

    /// Playback wraps from `range`'s upper bound back to its lower (seconds; finite, checked by
    /// the caller against the source) from now on; nil: it plays on. A playhead outside the
    /// range plays on into it.
    public func setLoop(_ range: ClosedRange<Double>?) {
        update { $0.loop = range }
    }

    /// Times closer than this are the same frame's (positions come from frame times).
    static let loopSlack = 0.001

    /// Decode thread, playing forward: when `frame` is past the loop's out, replaces it with the
    /// frame at the loop's in, due when `frame` would have been (the seek is done before the
    /// wait; from the second pass on it comes from the step cache, which keeps a loop's pictures
    /// within its bound). False when there is no loop or `frame` is inside it.
    func wrapLoop(_ frame: Frame, _ loop: inout DecodeLoopState) -> Bool {
        guard let range = playbackState.loop, frame.time > range.upperBound + Self.loopSlack,
              let seekable = source as? any SeekableVideoSource else { return false }
        let wallClock = loop.clock.clock
        let due = loop.clock.deadline(for: frame.time, now: wallClock.now)
        do throws(MediaError) {
            try seekable.seek(to: range.lowerBound, into: frame)
        } catch {
            pool.recycle(frame)
            if !stoppingOrSwitching { fail(error) }
            return true
        }
        framesDecoded.increment()
        // A wrap that took longer than a frame starts the clock over: no burst of late frames.
        loop.clock.anchor(frame.time, at: max(due, wallClock.now))
        loop.waitingFrame = frame
        return true
    }

    /// Decode thread, playing forward, before reading the next frame: while a loop is set, the
    /// pictures played stay in the step cache (a wrap, and what follows it, then costs no decode
    /// from the second pass on); the cache lets go of what is behind the playhead first. A loop
    /// set (or its in moved) while the playhead is at its in or up to its out: the pictures from the
    /// in to the playhead are decoded ahead (``SeekableVideoSource/preparesLoopIn``) for the
    /// first wrap (a playhead before the in keeps them by playing into the loop; one past the out
    /// wraps at once).
    func keepPicturesForLoop(_ loop: inout DecodeLoopState) {
        guard var seekable = source as? any SeekableVideoSource else { return }
        let range = playbackState.loop
        if seekable.keepsPlayedPictures != (range != nil) { seekable.keepsPlayedPictures = range != nil }
        if seekable.playsBackward { seekable.playsBackward = false }
        guard range?.lowerBound != loop.loopIn else { return }
        loop.loopIn = range?.lowerBound
        let shown = loop.shownTime ?? 0
        // At the in (the page's I sets it at the picture shown): that picture was decoded before
        // the loop, and is not kept with those played from now on.
        let inside = range.map { shown >= $0.lowerBound - Self.loopSlack && shown <= $0.upperBound + Self.loopSlack } ?? false
        seekable.preparesLoopIn = inside ? range?.lowerBound : nil
    }

    /// Decode thread, a frame ready and due at `deadline`: decodes pictures ahead of need
    /// (``SeekableVideoSource/decodeAhead()``) while the time left allows another as long as
    /// the longest so far, and no command waits. At least ``picturesAheadAtLeast``: a machine
    /// with no time to spare still gets them ready in time.
    func decodeAhead(until deadline: ContinuousClock.Instant, _ clock: ContinuousClock) {
        guard let seekable = source as? any SeekableVideoSource else { return }
        var longest = Duration.zero, decoded = 0
        repeat {
            let began = clock.now
            guard seekable.decodeAhead() else { return }
            longest = max(longest, began.duration(to: clock.now))
            decoded += 1
        } while decoded < Self.picturesAheadAtLeast || clock.now + longest < deadline && !commandWaiting
    }

    /// Pictures decoded ahead a frame, however late (while there are any to decode, and room):
    /// what is needed is ready in time when it is at most this many times the frames left before
    /// it is — backward, a GOP (N + 1 pictures, from its keyframe to the one it leads into) by the
    /// time the playhead crosses the keyframe after it, a seek 1.5 s after that keyframe on 5 s
    /// GOPs included; a loop's in, its GOP's run-in and the pictures to the playhead by the out.
    /// A machine without the time to spare shows those frames later, rather than freezing at the
    /// keyframe or the wrap for the whole decode.
    static let picturesAheadAtLeast = 4

    /// Decode thread, playing backward at `speed` (negative): the frame before the one shown,
    /// from the step cache (or decoded from the keyframe before it, filling the cache), delivered
    /// when the clock, running backward, reaches it. At the loop's in it wraps to its out; at the
    /// first frame (no loop) playback pauses there.
    func reverseStep(_ loop: inout DecodeLoopState, speed: Double, speedChanged: Bool) {
        dropWaitingFrame(&loop)  // a frame read ahead forward is not the next one backward
        let wallClock = loop.clock.clock
        // The clock runs on negated media time: backward is forward on it.
        if speedChanged || loop.clock.speed != -speed { loop.clock = PlaybackClock(clock: wallClock, speed: -speed) }
        let shown = loop.shownTime ?? 0
        guard let target = reverseTarget(from: shown), var seekable = source as? any SeekableVideoSource else {
            update { $0.isPlaying = false }
            return
        }
        if !seekable.playsBackward { seekable.playsBackward = true }  // what is behind goes first from the cache
        if !loop.clock.isAnchored { loop.clock.anchor(-shown, at: wallClock.now) }
        let due = loop.clock.deadline(for: -target, now: wallClock.now)
        let frame = pool.take()
        do throws(MediaError) {
            try seekable.seek(to: target, into: frame)
        } catch {
            pool.recycle(frame)
            if !stoppingOrSwitching { fail(error) }
            return
        }
        framesDecoded.increment()
        if frame.time >= shown - Self.loopSlack && playbackState.loop == nil {
            // The seek gave no earlier frame: this is the first.
            pool.recycle(frame)
            update { $0.isPlaying = false }
            return
        }
        decodeAhead(until: due, wallClock)
        if waitUntil(due, wallClock) {
            frame.isDiscontinuity = false
            loop.clock.anchor(-frame.time, at: due)
            deliver(frame, &loop)
        } else {
            pool.recycle(frame)  // a command came: it decides what is shown next
            loop.clock.invalidate()
        }
    }

    /// Seconds of the frame before the one at `shown`, by the source's frame numbering; the loop's
    /// out from its in; nil at the first frame (nothing before it).
    private func reverseTarget(from shown: Double) -> Double? {
        let state = playbackState
        let rate = info.numberingRate
        let index = (shown * rate).rounded()
        let before = (index - 1) / rate
        if let range = state.loop, shown >= range.lowerBound - Self.loopSlack, before < range.lowerBound - Self.loopSlack {
            return range.upperBound
        }
        return index >= 1 ? before : nil
    }
}
