/// What `GET /snapshot.jpg` of a channel is answered with.
enum SnapshotAnswer: Equatable {
    /// This JPEG, at once.
    case now([UInt8])
    /// Nothing yet: the request waits (an audience of one) for the channel's next picture.
    case wait
    /// 503 with this reason: the channel is idle and made no picture yet.
    case unavailable(String)
}

/// Snapshots: a snapshot takes the frames of an open input but never keeps a live input open
/// nor opens a closed one (a page's thumbnails poll every channel): a channel whose live input
/// is closed on demand (idle) is answered at once with the last real picture it made.
/// Network thread (a test's).
extension ServerCore {
    /// `GET /snapshot.jpg` of `channel` from connection `id`: the last real picture of an idle
    /// channel (503 without one: it made none since the start); the newest picture when one is
    /// encoded now (somebody watches); else `id` waits for the next as a snapshot watcher
    /// (``watcherJoined(_:_:of:)``; ``snapshotPicture(of:)`` when it comes, ``watcherLeft(_:)``).
    func snapshotAsked(_ id: ConnectionID, of channel: Channel) -> SnapshotAnswer {
        let full = channel.outputs.fullJPEG
        if channel.session.playback.isIdle {
            guard let picture = full.lastPictureJPEG() else {
                return .unavailable("channel \(channel.name) is idle (its live input opens when somebody watches) and has no picture yet")
            }
            return .now(picture)
        }
        if full.audience.load(ordering: .relaxed) > 0, let latest = full.broadcaster.latestJPEG() { return .now(latest) }
        watcherJoined(id, .snapshot, of: channel)
        return .wait
    }

    /// The picture a waiting snapshot of `channel` is answered with now: the last real one when
    /// the channel went idle meanwhile, else the newest; nil: none.
    func snapshotPicture(of channel: Channel) -> [UInt8]? {
        let full = channel.outputs.fullJPEG
        return channel.session.playback.isIdle ? full.lastPictureJPEG() : full.broadcaster.latestJPEG()
    }
}
