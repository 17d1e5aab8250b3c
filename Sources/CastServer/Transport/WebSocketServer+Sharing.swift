import CastProtocol
import CWebSockets
import Logging

/// `share`: a viewer's camera as the session's source, on the service thread. The session keeps
/// who shares (by ``sharerID(_:)``); this tells the clients concerned when it ends.
extension WebSocketServer {
    /// A connection's name in the session's sharing: unique while it is open.
    func sharerID(_ wsi: OpaquePointer) -> Int { Int(bitPattern: UnsafeRawPointer(wsi)) }

    /// `share` `start` (a request) or `stop` (nil) from `wsi`. A client that was taken over from
    /// is told.
    func share(_ request: ShareRequest?, _ wsi: OpaquePointer) throws(ProtocolError) {
        guard let request else {
            session.endSharing(of: sharerID(wsi), because: "the sharer stopped")
            return
        }
        guard let replaced = try session.startSharing(request, by: sharerID(wsi), limits: configuration.ingestLimits) else { return }
        tellSharingEnded(replaced, "another viewer took over the camera")
    }

    /// Any other command; one that opens another source (`open`) ends a sharing: its client is told.
    func apply(_ command: ClientCommand) throws(ProtocolError) {
        let sharer = session.sharer
        try session.apply(command)
        if let sharer, session.sharer == nil { tellSharingEnded(sharer, "another source was opened") }
    }

    /// A binary message from `wsi`: a picture of its camera. A picture that ends the sharing
    /// (not a picture, over the limits) brings everybody the state of the source from before.
    func ingest(_ message: UnsafeRawBufferPointer, _ wsi: OpaquePointer) throws(ProtocolError) -> Bool {
        do throws(ProtocolError) {
            return try session.ingest(message, from: sharerID(wsi))
        } catch {
            broadcastState()
            throw error
        }
    }

    /// Four times a second: a sharer silent for ``IngestLimits/silence`` loses the source.
    func endSilentSharing() {
        guard let silent = session.silentSharer(now: .now) else { return }
        tellSharingEnded(silent, "no picture from the camera for \(Int(IngestLimits.silence.seconds)) s")
        broadcastState()
    }

    /// A connection leaves: if it shared, what played before comes back.
    func sharerLeft(_ wsi: OpaquePointer) {
        if session.endSharing(of: sharerID(wsi), because: "the sharing page left") { broadcastState() }
    }

    private func tellSharingEnded(_ sharer: Int, _ reason: String) {
        guard let (wsi, connection) = connections.first(where: { sharerID($0.key) == sharer }),
              let viewer = connection.viewer else { return }
        viewer.sharingEnded(reason)
        lws_callback_on_writable(wsi)
    }
}
