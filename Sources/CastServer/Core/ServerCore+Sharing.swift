import CastProtocol

/// `share`: a viewer's camera as the source of its channel's session. The session keeps who
/// shares (by connection id); the core tells the clients concerned when it ends.
extension ServerCore {
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

    func tellSharingEnded(_ sharer: ConnectionID, _ reason: String) {
        guard let viewer = viewers[sharer]?.session else { return }
        viewer.sharingEnded(reason)
        requestWrite(sharer)
    }
}
