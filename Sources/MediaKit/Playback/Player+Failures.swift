/// Decode thread: what a failed read, a failed opening and the end of a file lead to.
extension Player {
    /// After a failed read: reconnects a live source, skips a file past the failure, or stops
    /// with the error. Returns true when the source was replaced (its timeline starts afresh).
    func recover(from error: MediaError) -> Bool {
        if stoppingOrSwitching { return false }  // the read was interrupted on purpose
        if let reopen {
            reconnect(after: error, using: reopen)
            return true
        }
        let position = playbackState.position
        // The skip is a seek: it stops with the reason when the file was deleted or changed.
        if let source = source as? any SeekableVideoSource, let duration = source.info.duration, position + 1 < duration {
            source.onWarning("\(error.description); skipping to \(position + 1) s")
            update { _ in pendingSeek = position + 1 }
        } else {
            fail(error)
        }
        return false
    }

    /// Stays offline, retrying with ``RetryPolicy``'s delays, until the source opens again (its
    /// first frame then sets `isOnline`), the player stops or another source is switched to.
    /// `warn` receives the warnings when there is no source to give them (the current one's).
    func reconnect(after error: MediaError, using reopen: SourceOpener, warn: ((String) -> Void)? = nil) {
        let clock = ContinuousClock()
        let name = info.name
        var reason = error.description
        let warn = warn ?? source?.onWarning ?? { _ in }
        source = nil
        offlineSince = offlineSince ?? .now
        while true {
            let delay = retry.nextDelay()
            let retryAt = clock.now + delay
            warn("\(name) is offline (\(reason)); retrying in \(delay.components.seconds) s")
            update { $0.markOffline(reason, retryAt: retryAt) }
            guard waitUntil(retryAt, clock, onlyStop: true) else { return }
            // Nothing takes the frames any more: no point in retrying until something does.
            if idleCloseDue { return goIdle(warn: warn) }
            update { $0.retryAt = nil }
            do {
                let reopened = try reopen()
                if let mismatch = sizeMismatch(reopened.info) {
                    reason = mismatch.description
                    continue
                }
                takeSize(of: reopened.info)
                reopened.onWarning = warn
                source = reopened
                return
            } catch {
                if stoppingOrSwitching { return }  // the attempt was interrupted on purpose
                reason = error.description
            }
        }
    }

    /// Whether a stop or a switch is under way: a read or an opening that fails now was
    /// interrupted on purpose.
    var stoppingOrSwitching: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || pendingSource != nil
    }

    /// The file ended: checked unchanged, then looped or ended. `decoding`: a loop seeks to the
    /// start; else (coasting) only the position goes back to 0 — nothing is decoded until a
    /// consumer comes, who gets the frame at the clock's position then.
    func endOfFile(decoding: Bool = true) {
        do throws(MediaError) {
            try (source as? any SeekableVideoSource)?.verifyUnchanged()
        } catch {
            return fail(error)
        }
        if let range = playbackState.loop {
            update { _ in pendingSeek = range.lowerBound }  // a loop's out at the very end
        } else if loops {
            update {
                if decoding { pendingSeek = 0 } else { $0.position = 0 }
            }
        } else {
            update { $0.hasEnded = true; $0.isPlaying = false }
        }
    }

    /// Stops playback with `error`; offline (so viewers get the placeholder) until a switch.
    /// `warn` receives the warning when there is no source to give it.
    func fail(_ error: MediaError, warn: ((String) -> Void)? = nil) {
        (warn ?? source?.onWarning)?("\(error.description); playback stopped")
        update {
            jumpsOutCount.store(jumpsAsked, ordering: .relaxed)  // no seek will show: nobody waits for one
            coasting = false  // nothing to catch up with: the source is gone
            $0.error = error.description
            $0.isPlaying = false
            $0.markOffline(error.description, retryAt: nil)
        }
    }
}
