import Logging

/// What the network thread does when woken (a new frame, a tick four times a second, a ring):
/// tell what other threads left, send the periodic state, move viewers between renditions, and
/// ask for the writes that are due.
extension ServerCore {
    /// `queuedBytes`: what waits in a viewer's socket (asked for viewers in a padded probe).
    /// Returns what the outputs hold now (the adapter serves its MJPEG readers and snapshots from it).
    @discardableResult
    func woken(queuedBytes: (ConnectionID) -> Int) -> FrameSupply {
        tellRecordingFailures()
        endSilentSharing()
        if stateSchedule.isDue(session.playback, recording: session.recordingActive, now: now()) { broadcastState() }
        let supply = self.supply
        if adaptViewers(supply, queuedBytes: queuedBytes) { audienceChanged() }
        for (id, connection) in viewers { requestWriteIfDue(id, connection.session, supply) }
        return supply
    }

    /// Sends every viewer a `recording_failed` error for each recording that stopped by itself.
    private func tellRecordingFailures() {
        let reasons = wake.takeRecordingFailures()
        guard !reasons.isEmpty else { return }
        for (id, connection) in viewers {
            reasons.forEach(connection.session.recordingStopped)
            requestWriteIfDue(id, connection.session)
        }
        broadcastState()
    }

    /// Moves viewers between renditions: their delivery judged every quarter second, H.264 moves
    /// made at the new rendition's keyframe, a padded probe stopped as soon as the socket's queue
    /// grows. True when any viewer's renditions changed.
    private func adaptViewers(_ supply: FrameSupply, queuedBytes: (ConnectionID) -> Int) -> Bool {
        let judge = lastAdaptation.duration(to: supply.now) >= .milliseconds(250)
        if judge { lastAdaptation = supply.now }
        let rates = judge ? outputs.rates : [:]
        var changed = false
        for (id, connection) in viewers {
            let viewer = connection.session
            let from = viewer.watching.rendition
            if viewer.isPadding { viewer.socketQueued(queuedBytes(id), frameInterval: frameInterval) }
            if judge && viewer.adapt(rates: rates, frameInterval: frameInterval) { changed = true }
            if viewer.switchIfReady(supply: supply) { changed = true }
            if viewer.watching.rendition != from { renditionSwitched(connection, from: from, to: viewer.watching.rendition) }
        }
        return changed
    }

    /// Counts and logs a viewer's move from rendition `from` to `to`.
    private func renditionSwitched(_ connection: ViewerConnection, from: Int, to: Int) {
        (to > from ? counters.switchesDown : counters.switchesUp).increment()
        if Log.enabled(.debug) {
            Log.debug("viewer moved", ["address": .string(connection.address), "from": .string(outputs.offer[from].id),
                                       "to": .string(outputs.offer[to].id)])
        }
    }
}
