/// What `GET /snapshot.jpg` of a channel is answered with.
package enum SnapshotAnswer: Equatable {
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
    /// How much older than the full-size rendition's last picture a smaller rendition's may be
    /// and still answer an idle channel's snapshot of its size: a page's thumbnails ask every
    /// few seconds, so theirs is that recent; an older one may show another source.
    static let keptPictureLag = Duration.seconds(10)

    /// `GET /snapshot.jpg` of `channel`'s JPEG rendition `rendition` from connection `id`: the
    /// last real picture of an idle channel (503 without one: it made none since the start); the
    /// newest picture when one is encoded now (somebody watches); else `id` waits for the next as
    /// a snapshot watcher (``watcherJoined(_:_:of:)``; ``snapshotPicture(of:rendition:)`` when it
    /// comes, ``watcherLeft(_:)``).
    package func snapshotAsked(_ id: ConnectionID, of channel: Channel, rendition: Int = 0) -> SnapshotAnswer {
        let stream = channel.outputs.jpeg[rendition]!
        if channel.session.playback.isIdle {
            guard let picture = lastPicture(of: channel, rendition: rendition) else {
                return .unavailable("channel \(channel.name) is idle (its live input opens when somebody watches) and has no picture yet")
            }
            return .now(picture)
        }
        if stream.audience.load(ordering: .relaxed) > 0, let latest = stream.broadcaster.latestJPEG() { return .now(latest) }
        watcherJoined(id, .snapshot(rendition: rendition), of: channel)
        return .wait
    }

    /// The picture a waiting snapshot of `channel`'s JPEG rendition `rendition` is answered with
    /// now: the last real one when the channel went idle meanwhile, else the newest; nil: none.
    package func snapshotPicture(of channel: Channel, rendition: Int = 0) -> [UInt8]? {
        channel.session.playback.isIdle
            ? lastPicture(of: channel, rendition: rendition)
            : channel.outputs.jpeg[rendition]!.broadcaster.latestJPEG()
    }

    /// The last real picture of `channel` at rendition `rendition`'s size when that rendition
    /// made one recently enough (``keptPictureLag``), else at full size.
    private func lastPicture(of channel: Channel, rendition: Int) -> [UInt8]? {
        let full = channel.outputs.fullJPEG.keptPicture()
        guard rendition != 0 else { return full?.jpeg }
        return Self.idlePicture(kept: channel.outputs.jpeg[rendition]!.keptPicture(), full: full)
    }

    /// Of a smaller rendition's `kept` last picture and the full-size rendition's, the one an
    /// idle channel's snapshot of that size gets: `kept` unless it lags `full` by more than
    /// ``keptPictureLag``.
    static func idlePicture(kept: KeptPicture?, full: KeptPicture?) -> [UInt8]? {
        guard let kept else { return full?.jpeg }
        guard let full else { return kept.jpeg }
        return kept.madeAt >= full.madeAt - keptPictureLag ? kept.jpeg : full.jpeg
    }
}
