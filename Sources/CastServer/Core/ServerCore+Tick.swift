import Logging

/// What the network thread does when woken (a new frame, a tick four times a second, a ring):
/// tell what other threads left, send the periodic state, move viewers between renditions, and
/// ask for the writes that are due.
extension ServerCore {
    /// `queuedBytes`: what waits in a viewer's socket, nil when unknown (asked for the viewers
    /// whose rendition the server chooses).
    /// Returns what each channel's outputs hold now (the adapter serves its MJPEG readers and
    /// snapshots from it).
    @discardableResult
    package func woken(queuedBytes: (ConnectionID) -> Int?) -> [ChannelName: FrameSupply] {
        tellRecordingFailures()
        let judge = lastAdaptation.duration(to: now()) >= .milliseconds(250)
        if judge { lastAdaptation = now() }
        var supplies: [ChannelName: FrameSupply] = [:]
        for channel in channels.all {
            endSilentSharing(channel)
            flushActivity(channel)
            if judge { tellCommentsOfNewSource(channel) }
            tellResizedRenditions(channel)
            let recording = channel.session.recordingActive
            if stateSchedules[channel.name]?.isDue(channel.session.playback, recording: recording, now: now()) == true {
                broadcastState(channel)
            }
            let supply = supply(of: channel)
            if adaptViewers(of: channel, supply, judge: judge, queuedBytes: queuedBytes) { audienceChanged(channel) }
            for (id, connection) in viewers(of: channel) {
                releaseAcks(connection)
                requestWriteIfDue(id, connection, supply)
            }
            supplies[channel.name] = supply
        }
        return supplies
    }

    /// Sends `channel`'s viewers its renditions at their new sizes when another size of source
    /// made them change (``RenditionSizes/changes``).
    private func tellResizedRenditions(_ channel: Channel) {
        let resizes = channel.outputs.sizes.changes
        guard renditionResizesTold[channel.name, default: 0] != resizes else { return }
        renditionResizesTold[channel.name] = resizes
        let offer = channel.outputs.offer
        for (_, connection) in viewers(of: channel) { connection.session.renditionsChanged(offer) }
    }

    /// Sends every viewer of a channel a `recording_failed` error for each of its recordings
    /// that stopped by itself.
    private func tellRecordingFailures() {
        for failure in wake.takeRecordingFailures() {
            guard let channel = channels[failure.channel] else { continue }
            for (id, connection) in viewers(of: channel) {
                connection.session.recordingStopped(failure.reason)
                requestWriteIfDue(id, connection)
            }
            broadcastState(channel)
        }
    }

    /// Moves `channel`'s viewers between its renditions: their delivery judged every quarter
    /// second (`judge`) against what their sockets hold (read at every wake), H.264 moves made at
    /// the new rendition's keyframe, a padded probe stopped as soon as the socket's queue grows.
    /// True when any viewer's renditions changed.
    private func adaptViewers(of channel: Channel, _ supply: FrameSupply, judge: Bool,
                              queuedBytes: (ConnectionID) -> Int?) -> Bool {
        let production = judge ? channel.outputs.production : [:]
        let frameInterval = frameInterval(of: channel)
        var changed = false
        for (id, connection) in viewers(of: channel) {
            let viewer = connection.session
            let from = viewer.watching.rendition
            if viewer.adapts { viewer.socketQueued(queuedBytes(id), frameInterval: frameInterval) }
            if judge && viewer.adapt(production: production, frameInterval: frameInterval) { changed = true }
            if viewer.switchIfReady(supply: supply) { changed = true }
            if viewer.watching.rendition != from { renditionSwitched(connection, from: from, to: viewer.watching.rendition) }
        }
        return changed
    }

    /// Counts and logs a viewer's move from rendition `from` to `to`.
    private func renditionSwitched(_ connection: ViewerConnection, from: Int, to: Int) {
        (to > from ? counters.switchesDown : counters.switchesUp).increment()
        if Log.enabled(.debug) {
            let offer = connection.channel.outputs.offer
            connection.channel.log.debug("viewer moved", ["address": .string(connection.address), "from": .string(offer[from].id),
                                                          "to": .string(offer[to].id)])
        }
    }
}
