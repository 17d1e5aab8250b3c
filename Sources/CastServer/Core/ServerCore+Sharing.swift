import CastProtocol

/// `share`: a viewer's camera as the session's source. The session keeps who shares (by
/// connection id); the core tells the clients concerned when it ends.
extension ServerCore {
    /// A command of viewer `id`, to the session. One that ends a sharing (`share stop`, another
    /// client's `share start` taking over, an `open`) tells the client whose camera it was.
    func apply(_ command: ClientCommand, from id: ConnectionID) throws(ProtocolError) {
        let sharer = session.sharer
        if case .share(let request) = command {
            guard let request else {
                session.endSharing(of: id, because: "the sharer stopped")
                return
            }
            let replaced = try session.startSharing(request, by: id, limits: configuration.ingestLimits)
            if let replaced { tellSharingEnded(replaced, "another viewer took over the camera") }
            return
        }
        try session.apply(command)
        if let sharer, session.sharer == nil { tellSharingEnded(sharer, "another source was opened") }
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
