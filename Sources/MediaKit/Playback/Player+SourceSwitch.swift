import FilterKit

/// Switching to another source: the commands (any thread) and the decode thread's side.
extension Player {
    /// A source waiting to replace the current one.
    enum PendingSource {
        /// Opened by the caller; reconnected with `reopen` when it is live and fails.
        case opened(any VideoSource, reopen: SourceOpener?)
        /// To be opened on the decode thread (and reconnected with it when live).
        case opening(SourceOpener, isLive: Bool)
    }

    /// Plays `newSource` from its start instead of the current source, which is closed. Its
    /// frames must be of the pool's size (open it with that `outputSize`) unless the size follows
    /// the source (``PlaybackOptions/sizeFollowsSource``). Playing or paused
    /// stays as it was (after a failure: playing), at the start's speed and without a loop; position, duration and `info` become the new
    /// source's, and its first frame is delivered (marked as a discontinuity) at once. A live
    /// `newSource` is reconnected with `reopen` when it fails, as in `init`.
    public func switchSource(to newSource: any VideoSource, reopen: SourceOpener? = nil) throws(MediaError) {
        if let mismatch = sizeMismatch(newSource.info) { throw mismatch }
        beginSwitch(to: .opened(newSource, reopen: newSource.info.isLive ? reopen : nil), info: newSource.info,
                    interruption: newSource.interruption)
    }

    /// Plays the source `open` opens instead of the current one, from its start, opening it on
    /// the decode thread once the current one is closed (a stream or a camera may take seconds
    /// to answer, and a UDP port or a camera must be free before it opens again). `info`
    /// describes it until then; `open` must give frames of the pool's size (unless the size
    /// follows the source) and break its reads
    /// on `interruption`. Playing or paused as in `switchSource(to:)`. When the opening fails, a
    /// live source is retried with `open` as a reconnection is; a file stops playback with the
    /// error (offline, as a file that failed).
    public func switchSource(opening open: @escaping SourceOpener, info: SourceInfo, interruption: Interruption) {
        beginSwitch(to: .opening(open, isLive: info.isLive), info: info, interruption: interruption)
    }

    /// Makes `pending` the next source, described by `newInfo`, and breaks the current one's
    /// blocking read (before the decode thread can begin to open `pending`, which may share
    /// `newInterruption` with it).
    private func beginSwitch(to pending: PendingSource, info newInfo: SourceInfo, interruption newInterruption: Interruption) {
        condition.lock()
        interruption.interrupt()
        pendingSource = pending
        pendingSeek = nil
        seekUnderWay = nil
        jumpsOutCount.store(jumpsAsked, ordering: .relaxed)  // no seek of the old source will show
        interruption = newInterruption
        sourceInfo = newInfo
        state.duration = newInfo.duration
        state.isLive = newInfo.isLive
        state.position = 0
        state.hasEnded = false
        // Another source plays at the start's speed without a loop (a loop's range and backward
        // play were the old one's).
        state.loop = nil
        if state.speed != startSpeed { (state.speed, speedChanged) = (startSpeed, true) }
        audioQueue?.setTempo(1)
        // A failure paused playback, not a viewer: the new source plays.
        if state.error != nil { state.isPlaying = true }
        state.markOnline()
        condition.broadcast()
        condition.unlock()
    }

    /// Why frames described by `info` cannot be played, or nil when they can.
    func sizeMismatch(_ info: SourceInfo) -> MediaError? {
        guard !sizeFollowsSource, info.width != pool.width || info.height != pool.height else { return nil }
        return .invalidInput("\(info.name) gives \(info.width)x\(info.height) frames, the player \(pool.width)x\(pool.height)")
    }

    /// Decode thread: replaces the source with `pending` and delivers its first frame; the
    /// reconnection delays and the timeline start afresh.
    func switchStep(to pending: PendingSource, _ loop: inout DecodeLoopState) {
        retry.reset()
        offlineSince = nil
        dropWaitingFrame(&loop)  // the old source's
        loop.restartTimeline()
        guard let newSource = adopt(pending) else { return }
        deliverJump(&loop) { (frame) throws(MediaError) in
            guard try newSource.read(into: frame) else { throw .endOfStream(input: newSource.info.name) }
        }
    }

    /// Makes `pending` the source (opening it first when it is not open yet); nil when that
    /// failed, handled (a live source reconnects, a file stops playback) or interrupted.
    private func adopt(_ pending: PendingSource) -> (any VideoSource)? {
        switch pending {
        case .opened(let newSource, let newReopen):
            takeSize(of: newSource.info)
            source = newSource
            reopen = newReopen
        case .opening(let open, let isLive):
            // The warnings go where the current source's went.
            let warn = source?.onWarning
            source = nil  // closed first: its UDP port or camera must be free for the new one
            reopen = isLive ? open : nil
            do throws(MediaError) {
                let opened = try open()
                if let mismatch = sizeMismatch(opened.info) { throw mismatch }
                takeSize(of: opened.info)
                source = opened
            } catch {
                if stoppingOrSwitching { return nil }  // interrupted on purpose
                if let reopen { reconnect(after: error, using: reopen, warn: warn) } else { fail(error, warn: warn) }
                return nil
            }
        }
        return source
    }
}
