import Logging

/// On demand: a live input that nothing takes frames from for ``PlaybackOptions/idleClose`` is
/// closed — the camera, the connection, the UDP port are let go, the decode thread sleeps
/// without a wake-up — and opened again on the decode thread when consumers come back. Only an
/// input the player can open again (one with a `reopen`) closes: a shared browser camera stays.
extension Player {
    /// What the idle timer asks of the decode thread now.
    enum OnDemand {
        /// Close the input: nothing took its frames for `idleClose`.
        case close
        /// Open it again: it was closed, and consumers came back.
        case reopen
        /// Closed, and nothing wants frames: wait for a command or a consumer.
        case sleep
    }

    /// Under the lock, on the decode thread (which owns `reopen`): whether the idle timer
    /// decides the next step; nil when it does not (no timer, a file, not due yet).
    func onDemand(now: ContinuousClock.Instant) -> OnDemand? {
        guard let idleClose, reopen != nil, state.isLive else { return nil }
        if state.isIdle { return liveInputHeld ? .reopen : .sleep }
        return idleClose.isDue(at: now) ? .close : nil
    }

    /// Under the lock, on the decode thread: when the input is to close while the decode
    /// thread waits for a command (paused), so that it wakes then; nil: no such time.
    var idleDeadline: ContinuousClock.Instant? {
        guard reopen != nil, state.isLive, !state.isIdle else { return nil }
        return idleClose?.deadline
    }

    /// Whether a live input that failed and is being reconnected should rather close: nothing
    /// has taken frames for `idleClose`. Decode thread.
    var idleCloseDue: Bool {
        condition.lock()
        defer { condition.unlock() }
        if case .close = onDemand(now: .now) { return true }
        return false
    }

    /// Decode thread: closes the input (a frame decoded and not shown is dropped) and goes idle.
    /// `warn`: where the warnings go once it opens again (the closed source's by default).
    func closeIdle(_ loop: inout DecodeLoopState) {
        dropWaitingFrame(&loop)
        loop.restartTimeline()
        goIdle(warn: source?.onWarning)
    }

    /// Decode thread: the input is closed (or was, having failed): idle until consumers come
    /// back. `warn`: where its warnings go once it opens again.
    func goIdle(warn: ((String) -> Void)?) {
        idleWarn = warn ?? idleWarn
        source = nil
        offlineSince = nil
        update { $0.markIdle() }
        let seconds = condition.withLock { idleClose?.after.seconds ?? 0 }
        log.info("\(info.name) closed: nothing took its frames for \(seconds.formatted()) s")
    }

    /// Decode thread: opens the input closed on demand again (offline, "opening", meanwhile);
    /// its first frame brings it online. An input that does not open is retried as a live
    /// input that failed is.
    func reopenIdle() {
        guard let reopen else { return }
        let name = info.name
        update {
            $0.isIdle = false
            $0.offlineReason = "opening \(name)"
        }
        log.info("\(name) opens again: somebody watches")
        let warn = idleWarn ?? { _ in }
        do throws(MediaError) {
            let opened = try reopen()
            if let mismatch = sizeMismatch(opened.info) { throw mismatch }
            takeSize(of: opened.info)
            opened.onWarning = warn
            source = opened
        } catch {
            if stoppingOrSwitching { return }  // interrupted on purpose
            reconnect(after: error, using: reopen, warn: warn)
        }
    }
}
