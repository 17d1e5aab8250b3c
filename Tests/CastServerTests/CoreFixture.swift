@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Telemetry

/// Real channels on the test pattern (not started) — each its session, its viewers' outputs (JPEG
/// full and half size) and its library in a temporary folder — and the server core over them,
/// with a clock the test moves. No socket.
final class CoreFixture {
    /// The names in `folder`; none while it does not exist (the server makes its folders when it first writes in them).
    static func files(in folder: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    }

    /// The time the test moves on by hand.
    final class TestClock: @unchecked Sendable {
        var now = ContinuousClock.now
    }

    /// Every channel, the default one (`main`) first.
    let channels: [Channel]
    let counters = TransportCounters()
    let wake = NetworkWake()
    let clock = TestClock()
    let core: ServerCore
    /// What `/metrics` renders: the transport's and every channel's series, as `serve` registers them.
    let metrics: Metrics
    var routes: [Route] { core.router.routes }
    var router: Router { core.router }
    /// The temporary folder of its files (`recordings/`, `uploads/`, `web/`).
    let base: String
    /// The default channel and its parts.
    var main: Channel { channels[0] }
    var session: Session { main.session }
    var outputs: ViewerOutputs { main.outputs }
    var library: MediaLibrary { main.session.library! }

    /// A server with `--uploads` or not, `--token` (nil: none), `--admin-token`, `--public-view`, `--max-clients`,
    /// `--allow-origin`, and a channel of each of `others`' names besides `main` (each
    /// `--channel NAME=test:64x48@30`, recording into `recordings/NAME`).
    /// With `luts`, `--luts` on an empty folder (`luts/`), its `lut` filter in the catalog; with
    /// `looks`, `--looks` on the folder `looks/`. `channelTokens`: channels' own tokens, by name
    /// (`"token"` of the channels file); `maxChannelViewers`, `--max-channel-viewers`; `idleClose`:
    /// `main`'s live input closes on demand (`--idle-close`; the test starts its player); with
    /// `comments`, `--comments` on the folder `comments/`.
    init(uploads: Bool = false, token: String? = nil, adminToken: String? = nil, publicView: Bool = false, maxClients: Int = 200,
         allowedOrigins: [String] = [], others: [String] = [], luts: Bool = false, maxChannels: Int = 16,
         channelsFile: ChannelsFile? = nil, looks: Bool = false, channelTokens: [String: String] = [:],
         maxChannelViewers: Int? = nil, idleClose: Duration? = nil, comments: Bool = false) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString)").path
        let lutFolder = luts ? try LUTFolder(path: base + "/luts") : nil
        let catalog = lutFolder.map { FilterCatalog.standard.adding($0.library.catalogEntry, category: .colorEffect) } ?? .standard
        channels = try ([ChannelName.main.description] + others).enumerated().map { index, name in
            let recordings = base + "/recordings" + (index == 0 ? "" : "/\(name)")
            return try Self.channel(try ChannelName(name), isDefault: index == 0, catalog: catalog,
                                    library: try MediaLibrary(recordingsPath: recordings, mediaPath: nil,
                                                              uploadsPath: uploads ? base + "/uploads" : nil),
                                    token: AccessToken(channelTokens[name]), idleClose: index == 0 ? idleClose : nil)
        }
        try FileManager.default.createDirectory(atPath: base + "/web", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/web/index.html", contents: Data("<html>".utf8))
        var configuration = ServerConfiguration(webRoot: base + "/web")
        configuration.token = token
        configuration.adminToken = adminToken
        configuration.luts = lutFolder
        configuration.looks = looks ? try LookFolder(path: base + "/looks") : nil
        configuration.commentsDirectory = comments ? base + "/comments" : nil
        configuration.catalog = catalog
        configuration.publicView = publicView
        configuration.maxClients = maxClients
        configuration.maxChannelViewers = maxChannelViewers
        configuration.allowedOrigins = allowedOrigins
        configuration.maxUploadBytes = 1_000_000
        configuration.recording.minimumFreeBytes = 0
        configuration.recording.directory = base + "/recordings"
        configuration.maxChannels = maxChannels
        configuration.channelsFile = channelsFile
        // Channels added at run time: one JPEG rendition, no H.264, no sound to encode.
        configuration.jpegLadder = [48]
        configuration.h264Ladder = []
        configuration.openTimeout = .seconds(5)
        self.base = base
        metrics = ServerMetrics.make(channels: channels, transport: counters, uploads: uploads)
        core = ServerCore(configuration: configuration, channels: ChannelRegistry(channels), counters: counters, metrics: metrics,
                          files: try StaticFiles(root: base + "/web"), wake: wake, now: { [clock] in clock.now })
    }

    /// A channel on a 64×48 test pattern with two JPEG renditions and no H.264.
    private static func channel(_ name: ChannelName, isDefault: Bool, catalog: FilterCatalog, library: MediaLibrary,
                                token: AccessToken?, idleClose: Duration?) throws -> Channel {
        let spec = InputSpec.testPattern(width: 64, height: 48, rate: 30)
        let player = Player(source: try spec.open(), options: PlaybackOptions(idleClose: idleClose),
                            reopen: idleClose.map { _ in spec.reopener(SourceOptions(), width: 64, height: 48) })
        let session = Session(player: player, input: spec, filter: .none, catalog: catalog, library: library,
                              inputOpener: spec.opener(SourceOptions(), width: 64, height: 48))
        let processing = ProcessingCounters()
        let sizes = RenditionSizes(width: 64, height: 48)
        let jpeg = try [64, 32].map { width in
            try ViewerStream(scale: RungScale(start: Rendition(id: "jpeg-\(width)", transport: .jpeg, width: width, height: width * 3 / 4),
                                              startHeight: 48, cap: nil, frameRate: 30),
                             sizes: sizes, quality: 80, maxFPS: nil, counters: processing, transportGeneration: { 0 }, wake: {})
        }
        let second = try SecondPicture.allCases.map { picture in
            try ViewerStream(scale: RungScale(start: Rendition(id: "\(picture.rawValue)-48p", transport: .jpeg, width: 64, height: 48,
                                                               second: picture),
                                              startHeight: 48, cap: nil, frameRate: 30),
                             sizes: sizes, quality: 80, maxFPS: nil, counters: processing, transportGeneration: { 0 }, wake: {})
        }
        let outputs = ViewerOutputs(jpeg: jpeg, h264: [], second: second, sizes: sizes)
        let processor = FrameProcessor(player: session.player, selection: session.selection, studio: session.studio, catalog: session.catalog,
                                       outputs: outputs.all, rerender: session.rerender, counters: processing, filterThreads: 1,
                                       offlineReason: { _ in nil })
        return Channel(name: name, isDefault: isDefault, session: session, outputs: outputs, processor: processor, counters: processing,
                       token: token)
    }

    /// A new picture in every JPEG rendition of `channel` (default: `main`), as the processing loop would hand it over.
    func publishFrame(in channel: Channel? = nil) {
        let frame = Frame(width: 64, height: 48)
        for stream in (channel ?? main).outputs.jpeg.values {
            stream.take(frame, FrameContext(kind: .new, isFiltered: true, filterGeneration: 0))
        }
    }
}
