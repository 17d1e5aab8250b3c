import CastProtocol
import Foundation
import Logging
import MediaKit
import Telemetry

/// A connection's name in the core, unique while it is open (the lws adapter uses the address
/// of its connection; tests any number).
package typealias ConnectionID = Int

/// The server without sockets: the route table, the registry of channels, the viewers'
/// sessions (each on one channel), who watches what in each channel (and what that demands of
/// its outputs), each channel's state fan-out and camera sharing. The lws adapter
/// (`WebSocketServer`) turns each lws event into one call here and writes what it is handed
/// back; tests make the same calls with a clock they move.
///
/// Threads: the service thread only (a test's own thread in tests). Other threads reach it
/// through ``NetworkWake``, whose ring makes the adapter call ``woken(queuedBytes:)``.
package final class ServerCore {
    let configuration: ServerConfiguration
    /// Every channel; a connection without `?channel=` is on the default one. Replaced when a
    /// channel is added or removed (`ServerCore+Channels`).
    package var channels: ChannelRegistry
    /// Opens and stops the channels added and removed at run time, off this thread.
    package let channelDesk: ChannelDesk
    /// Channels being added or removed, and which ("being added", "being removed"): their names are taken.
    var channelChanges: [ChannelName: String] = [:]
    /// The bodies of the channels being added, for `--channels-file`.
    var channelBodies: [ChannelName: [UInt8]] = [:]
    package let counters: TransportCounters
    /// What `/metrics` renders: a channel added registers its series here, a channel removed takes them out.
    let metrics: Metrics
    /// What other threads leave for the network thread (recordings that stopped by themselves).
    let wake: NetworkWake
    /// What `hello` offers on every channel besides the renditions (``features(of:)`` adds a channel's own).
    let features: ServerFeatures
    /// `--uploads`: what an upload may be (nil: none taken).
    let uploadPolicy: UploadPolicy?
    /// The seek bar's thumbnails of the files the channels play (`GET /api/thumbnails`).
    package let seekThumbnails: SeekThumbnails
    /// Every HTTP route and the access each needs.
    private(set) var router: Router
    let now: () -> ContinuousClock.Instant

    /// The `/ws` viewers, of every channel.
    package var viewers: [ConnectionID: ViewerConnection] = [:]
    /// MJPEG readers and snapshots waiting for a frame: HTTP connections the adapter serves, which
    /// count in the audience of a JPEG rendition of their channel.
    var watchers: [ConnectionID: (channel: Channel, watcher: HTTPWatcher)] = [:]
    /// The request bodies being taken or checked (uploads, shelves' items, channels' JSON), by connection.
    var bodies = PendingBodies()
    /// Connections that have something to write: the adapter asks lws for their writable callbacks.
    var writeRequests = Set<ConnectionID>()
    /// When each channel's periodic `state` is due.
    var stateSchedules: [ChannelName: StateBroadcastSchedule]
    /// When viewers' delivery was last judged.
    var lastAdaptation: ContinuousClock.Instant
    /// Each channel's ``RenditionSizes/changes`` its viewers were last told of (`renditions`).
    var renditionResizesTold: [ChannelName: Int] = [:]
    /// Each channel's review room (people, presenter, activity), made when its first viewer comes.
    var rooms: [ChannelName: ChannelRoom] = [:]
    /// `--comments`: every source's comments (nil: the server keeps none).
    let commentFolder: CommentFolder?
    /// The comments' pictures (`/snapshot.jpg?comment=`), drawn off this thread.
    let commentPictures: CommentPictures?

    /// A core for the viewers of `channels`; `metrics` and `files` are what `/metrics` and the
    /// page's routes serve. With the libraries taking uploads (`--uploads`, one folder for every
    /// channel), the core takes them within `maxUploadBytes` and `configuration`'s free-space reserve.
    /// Channels added at run time are built by `openChannel` (default: as `--channel` builds them).
    package init(configuration: ServerConfiguration, channels: ChannelRegistry, counters: TransportCounters,
         metrics: Metrics, files: StaticFiles, wake: NetworkWake,
         openChannel: ChannelDesk.Opener? = nil,
         now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.configuration = configuration
        self.channels = channels
        self.counters = counters
        self.metrics = metrics
        self.wake = wake
        self.now = now
        channelDesk = ChannelDesk(wake: wake, opener: openChannel ?? { [configuration] channel in
            try Channel(name: channel.name, input: channel.input, isDefault: false, configuration: channel.configuring(configuration),
                        wake: wake)
        })
        seekThumbnails = SeekThumbnails(folder: configuration.dataFolder.map { $0 + "/thumbnails" }
            ?? NSTemporaryDirectory() + "filtercast-thumbnails-\(getpid())")
        let library = channels.defaultChannel.session.library
        uploadPolicy = library?.uploads.map { _ in
            UploadPolicy(maxBytes: configuration.maxUploadBytes, reserveBytes: configuration.recording.minimumFreeBytes)
        }
        features = ServerFeatures(mediaFolder: library?.media != nil, uploads: uploadPolicy.map { UploadOffer(maxBytes: $0.maxBytes) },
                                  looks: configuration.looks != nil, regions: channels.defaultChannel.session.catalog.regions)
        router = Router(routes: [], access: AccessPolicy(token: AccessToken(configuration.token), adminToken: AccessToken(configuration.adminToken),
                                                           publicView: configuration.publicView),
                        allowedOrigins: configuration.allowedOrigins)
        commentFolder = configuration.commentsDirectory.map(CommentFolder.init(path:))
        commentPictures = configuration.commentsDirectory.map { CommentPictures(folder: $0 + "/pictures", catalog: configuration.catalog) }
        let start = now()
        stateSchedules = Dictionary(uniqueKeysWithValues: channels.all.map { ($0.name, StateBroadcastSchedule(now: start)) })
        lastAdaptation = start
        // The handlers read this core's state (the viewer counts, the client limit): made once it is.
        let context = RouteContext(registry: { [unowned self] in self.channels }, metrics: metrics, files: files, takesUploads: features.uploads != nil,
                                   luts: configuration.luts, looks: configuration.looks, styles: configuration.styles,
                                   backgrounds: configuration.backgrounds,
                                   thumbnails: seekThumbnails,
                                   deleteLUT: { [unowned self] in deleteLUT($0) }, deleteStyle: { [unowned self] in deleteStyle($0) },
                                   deleteBackground: { [unowned self] in deleteBackground($0) },
                                   state: { [unowned self] in state(of: $0) }, activity: { [unowned self] in activity(of: $0) },
                                   comments: { [unowned self] in commentsAnswer($0, format: $1) },
                                   commentPicture: { [unowned self] in commentPicture($0, id: $1) },
                                   clientLimit: { [unowned self] in clientLimitRefusal($1, address: $0.address) })
        router = Router(routes: ServerRoutes.table(context), access: router.access, allowedOrigins: router.allowedOrigins,
                        channelToken: { [unowned self] name in self.channels.channel(named: name)?.token })
    }

    /// The write requests made since the last call (the adapter turns each into a writable callback).
    package func takeWriteRequests() -> Set<ConnectionID> {
        defer { writeRequests.removeAll(keepingCapacity: true) }
        return writeRequests
    }

    func requestWrite(_ id: ConnectionID) { writeRequests.insert(id) }

    /// What `hello` offers a viewer of `channel`: the server's features, its sound and its name.
    func features(of channel: Channel) -> ServerFeatures {
        var features = features
        features.audio = channel.outputs.audio.map { _ in SourceAudio.wire }
        features.channel = channel.name.description
        return features
    }

    /// How often `channel`'s session encodes a frame (from `--max-fps` or the source's rate).
    func frameInterval(of channel: Channel) -> Duration { channel.session.frameInterval(maxFPS: configuration.maxFPS) }

    /// What `channel`'s outputs hold now, on this core's clock (``ViewerOutputs/supply(withEncoders:)``).
    func supply(of channel: Channel, withEncoders: Bool = false) -> FrameSupply {
        var supply = channel.outputs.supply(withEncoders: withEncoders)
        supply.now = now()
        return supply
    }

    /// Viewers of every channel.
    var viewerCount: Int { viewers.count }

    /// MJPEG readers of every channel.
    var mjpegReaderCount: Int {
        watchers.values.reduce(0) { count, watching in
            if case .mjpeg = watching.watcher { count + 1 } else { count }
        }
    }

    /// The `/ws` viewers of `channel`.
    func viewers(of channel: Channel) -> some Sequence<(key: ConnectionID, value: ViewerConnection)> {
        viewers.lazy.filter { $0.value.channel === channel }
    }

    /// `channel`'s state as its viewers and `/api/state?channel=` see it.
    func state(of channel: Channel) -> SessionState {
        var state = channel.session.state(viewers: viewers.values.reduce(0) { $0 + ($1.channel === channel ? 1 : 0) },
                                          fps: channel.outputs.fps)
        state.renditions = channel.outputs.uses
        state.styleRefreshHz = channel.counters.styleRefreshHz
        addRoom(to: &state, of: channel)
        return state
    }

    /// The refusal of one more viewer or MJPEG reader of `channel` from `address` (logged), nil
    /// when it may come: 503 when `--max-clients` are connected on all channels together, or
    /// `--max-channel-viewers` on `channel` (the answer names it).
    func clientLimitRefusal(_ channel: Channel, address: String) -> HTTPAnswer? {
        if viewerCount + mjpegReaderCount >= configuration.maxClients {
            Log.warning("client refused: --max-clients reached",
                        ["address": .string(address), "max_clients": .int(configuration.maxClients)])
            return .status(503, "too many clients")
        }
        let audience = audience(of: channel)
        guard let limit = configuration.maxChannelViewers, audience.viewers + audience.mjpegReaders >= limit else { return nil }
        channel.log.warning("client refused: --max-channel-viewers reached",
                            ["address": .string(address), "max_channel_viewers": .int(limit)])
        return .status(503, "too many clients on channel \(channel.name)")
    }
}

/// A `/ws` viewer: its rules (``ViewerSession``), its channel and what the log says of it.
package final class ViewerConnection {
    let session: ViewerSession
    /// The channel it watches and controls (`?channel=` of its URL), for as long as it is connected.
    let channel: Channel
    let address: String
    let connectedAt: ContinuousClock.Instant

    init(session: ViewerSession, channel: Channel, address: String, connectedAt: ContinuousClock.Instant) {
        self.session = session
        self.channel = channel
        self.address = address
        self.connectedAt = connectedAt
    }
}

/// An HTTP client that watches a JPEG rendition without being a viewer.
package enum HTTPWatcher: Equatable {
    /// A `/stream.mjpg` reader of JPEG rendition `rendition`.
    case mjpeg(rendition: Int)
    /// A `/snapshot.jpg` waiting for the next frame of JPEG rendition `rendition`.
    case snapshot(rendition: Int)

    var rendition: Int {
        switch self {
        case .mjpeg(let rendition), .snapshot(let rendition): rendition
        }
    }
}
