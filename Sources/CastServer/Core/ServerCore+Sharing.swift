import CastProtocol

/// `share`: a viewer's camera as the session's source. The session keeps who shares (by
/// connection id); the core tells the clients concerned when it ends.
extension ServerCore {
    /// A session command of viewer `id`. One that ends another client's sharing (its `share
    /// start` took over, an `open`) tells the client whose camera it was.
    func apply(_ command: SessionCommand, from id: ConnectionID) throws(ProtocolError) {
        if let ended = try session.apply(command, from: id) { tellSharingEnded(ended.sharer, ended.reason) }
    }

    /// A binary message of viewer `id`: a picture of its camera. A picture that ends the sharing
    /// (not a picture, over the limits) brings everybody the state of the source from before.
    func ingest(_ message: UnsafeRawBufferPointer, from id: ConnectionID) throws(ProtocolError) -> Bool {
        do throws(ProtocolError) {
            return try session.ingest(message, from: id)
        } catch {
            broadcastState()
            throw error
        }
    }

    /// Four times a second: a sharer silent for ``IngestLimits/silence`` loses the source.
    func endSilentSharing() {
        guard let silent = session.silentSharer(now: now()) else { return }
        tellSharingEnded(silent, "no picture from the camera for \(Int(IngestLimits.silence.seconds)) s")
        broadcastState()
    }

    /// A viewer leaves: if it shared, what played before comes back.
    func sharerLeft(_ id: ConnectionID) {
        if session.endSharing(of: id, because: "the sharing page left") { broadcastState() }
    }

    private func tellSharingEnded(_ sharer: ConnectionID, _ reason: String) {
        guard let viewer = viewers[sharer]?.session else { return }
        viewer.sharingEnded(reason)
        requestWrite(sharer)
    }
}
