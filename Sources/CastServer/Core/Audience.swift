/// Who watches what, counted from the connections: what each rendition's output must make, and
/// how many listen. Pure: `ServerCore` counts it after every change and hands it to the outputs.
struct Audience: Equatable {
    /// Clients per rendition (its index in the offer): viewers (on it and moving to it), MJPEG
    /// readers, snapshots waiting.
    var renditions: [Int: Int] = [:]
    /// Viewers that may watch and asked for sound.
    var listeners = 0
    var viewers = 0
    var mjpegReaders = 0
    /// Snapshots waiting, per JPEG rendition.
    var snapshots: [Int: Int] = [:]

    /// The audience of `viewers` (each the renditions it needs now and whether it listens) and
    /// of HTTP `watchers`.
    init(viewers: some Sequence<ViewerSession>, watchers: some Sequence<HTTPWatcher>) {
        for viewer in viewers {
            self.viewers += 1
            for rendition in viewer.watchedRenditions { renditions[rendition, default: 0] += 1 }
            if viewer.isListening { listeners += 1 }
        }
        for watcher in watchers {
            renditions[watcher.rendition, default: 0] += 1
            if case .mjpeg = watcher { mjpegReaders += 1 } else { snapshots[watcher.rendition, default: 0] += 1 }
        }
    }

    func count(of rendition: Int) -> Int { renditions[rendition] ?? 0 }
}

/// The audience book: what the connections of each channel demand of its outputs, kept in
/// step after every change.
extension ServerCore {
    /// An MJPEG reader or a waiting snapshot of `channel` joined (the adapter serves it).
    package func watcherJoined(_ id: ConnectionID, _ watcher: HTTPWatcher, of channel: Channel) {
        watchers[id] = (channel, watcher)
        audienceChanged(channel)
    }

    /// It left (or the snapshot was answered).
    package func watcherLeft(_ id: ConnectionID) {
        guard let left = watchers.removeValue(forKey: id) else { return }
        audienceChanged(left.channel)
    }

    /// `channel`'s audience now.
    func audience(of channel: Channel) -> Audience {
        Audience(viewers: viewers(of: channel).map(\.value.session),
                 watchers: watchers.values.lazy.filter { $0.channel === channel }.map(\.watcher))
    }

    /// Hands `channel`'s audience to its outputs (each encodes only while watched; the sound is
    /// decoded only while somebody listens), and the client gauges (of every channel). A JPEG
    /// rendition nobody watched until now re-renders the current frame at once: it matters
    /// when paused, when no frame comes. An H.264 rendition nobody watched until now wakes the
    /// processing loop, which then tells the player that frames are wanted (a file that coasted
    /// seeks to the clock, a live input closed on demand opens).
    func audienceChanged(_ channel: Channel) {
        let audience = audience(of: channel), outputs = channel.outputs
        counters.viewers.set(viewerCount)
        channel.viewerCount.set(audience.viewers)
        counters.mjpegReaders.set(mjpegReaderCount)
        outputs.audio?.setAudience(audience.listeners)
        var watched = false
        for (index, stream) in outputs.h264 {
            let before = stream.audience.exchange(audience.count(of: index), ordering: .relaxed)
            watched = watched || (before == 0 && audience.count(of: index) > 0)
            stream.counters.viewers.set(audience.count(of: index))
        }
        if watched { channel.session.player.output.poke() }
        var joined = false
        for (index, stream) in outputs.jpeg {
            stream.snapshotsWaiting.store(audience.snapshots[index] ?? 0, ordering: .relaxed)
            let before = stream.audience.exchange(audience.count(of: index), ordering: .relaxed)
            joined = joined || (before == 0 && audience.count(of: index) > 0)
        }
        if joined { channel.session.rerender.request() }
        let offer = outputs.offer
        if channel.session.studio.watched(offer.indices.contains { offer[$0].isPreview && audience.count(of: $0) > 0 }) {
            broadcastState(channel)
        }
    }
}
