import CastProtocol

/// Where every session command and camera picture of a viewer enters the core (its
/// `ViewerSession` parsed it and the command table let it through): the room's part first, then
/// the channel's session or the server's part (the looks), then who made the change.
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
}
