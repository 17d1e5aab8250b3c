import CastProtocol

/// `share`: a viewer's camera as the source of its channel's session. The session keeps who
/// shares (by connection id); the core tells the clients concerned when it ends.
extension ServerCore {
    /// A session command of viewer `id`, sent as `type` (its message's, which the activity names
    /// it by), for its channel's session. One that ends another client's sharing (its `share
    /// start` took over, an `open`) tells the client whose camera it was. The channel's room has
    /// its part first (the presenter, pointers, comments: ``applyInRoom(_:as:from:_:)``); a change
    /// carried out is attributed to the viewer's person.
    func apply(_ command: SessionCommand, as type: String, from id: ConnectionID) throws(ProtocolError) {
        guard let connection = viewers[id], try !applyInRoom(command, as: type, from: id, connection) else { return }
        let channel = connection.channel
        let deletedComments = commentsGoing(with: command, on: channel)
        if let part = try sessionPart(of: command, on: channel), let ended = try channel.session.apply(part, from: id) {
            tellSharingEnded(ended.sharer, ended.reason)
        }
        if let deletedComments { forgetComments(of: deletedComments) }
        attribute(command, as: type, from: id)
        playheadMoved(command, on: channel)
    }

    /// A binary message of viewer `id`: a picture of its camera. A picture that ends the sharing
    /// (not a picture, over the limits) brings its channel the state of the source from before.
    func ingest(_ message: UnsafeRawBufferPointer, from id: ConnectionID) throws(ProtocolError) -> Bool {
        guard let channel = viewers[id]?.channel else { return false }
        do throws(ProtocolError) {
            return try channel.session.ingest(message, from: id)
        } catch {
            broadcastState(channel)
            throw error
        }
    }

    /// Four times a second: a sharer silent for ``IngestLimits/silence`` loses `channel`'s source.
    func endSilentSharing(_ channel: Channel) {
        guard let silent = channel.session.silentSharer(now: now()) else { return }
        tellSharingEnded(silent, "no picture from the camera for \(Int(IngestLimits.silence.seconds)) s")
        broadcastState(channel)
    }

    /// A viewer of `channel` leaves: if it shared, what played before comes back.
    func sharerLeft(_ id: ConnectionID, _ channel: Channel) {
        if channel.session.endSharing(of: id, because: "the sharing page left") { broadcastState(channel) }
    }

    private func tellSharingEnded(_ sharer: ConnectionID, _ reason: String) {
        guard let viewer = viewers[sharer]?.session else { return }
        viewer.sharingEnded(reason)
        requestWrite(sharer)
    }
}
