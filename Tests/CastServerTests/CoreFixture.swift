@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Telemetry

/// A real session on the test pattern (not started), its viewers' outputs (JPEG full and half
/// size), a library in a temporary folder, and the server core over them — with a clock the test
/// moves. No socket.
final class CoreFixture {
    /// The time the test moves on by hand.
    final class TestClock: @unchecked Sendable {
        var now = ContinuousClock.now
    }

    let session: Session
    let outputs: ViewerOutputs
    let library: MediaLibrary
    let counters = TransportCounters()
    let wake = NetworkWake()
    let clock = TestClock()
    let core: ServerCore
    var routes: [Route] { core.router.routes }
    var router: Router { core.router }

    /// A server with `--uploads` or not, `--token` (nil: none), `--public-view`, `--max-clients` and `--allow-origin`.
    init(uploads: Bool = false, token: String? = nil, publicView: Bool = false, maxClients: Int = 200,
         allowedOrigins: [String] = []) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("core-\(UUID().uuidString)").path
        library = try MediaLibrary(recordingsPath: base + "/recordings", mediaPath: nil, uploadsPath: uploads ? base + "/uploads" : nil)
        let spec = InputSpec.testPattern(width: 64, height: 48, rate: 30)
        session = Session(player: Player(source: try spec.open()), input: spec, filter: .none, library: library,
                          inputOpener: spec.opener(SourceOptions(), width: 64, height: 48))
        let processing = ProcessingCounters()
        let jpeg = try [64, 32].map { width in
            try ViewerStream(rendition: Rendition(id: "jpeg-\(width)", transport: .jpeg, width: width, height: width * 3 / 4),
                             source: (64, 48), quality: 80, maxFPS: nil, counters: processing, transportGeneration: { 0 }, wake: {})
        }
        outputs = ViewerOutputs(jpeg: jpeg, h264: [])
        try FileManager.default.createDirectory(atPath: base + "/web", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: base + "/web/index.html", contents: Data("<html>".utf8))
        var configuration = ServerConfiguration(webRoot: base + "/web")
        configuration.token = token
        configuration.publicView = publicView
        configuration.maxClients = maxClients
        configuration.allowedOrigins = allowedOrigins
        configuration.maxUploadBytes = 1_000_000
        configuration.recording.minimumFreeBytes = 0
        core = ServerCore(configuration: configuration, session: session, outputs: outputs, counters: counters, metrics: Metrics(),
                          files: try StaticFiles(root: base + "/web"), wake: wake, now: { [clock] in clock.now })
    }

    /// A new picture in every JPEG rendition, as the processing loop would hand it over.
    func publishFrame() {
        let frame = Frame(width: 64, height: 48)
        for stream in outputs.jpeg.values { stream.take(frame, FrameContext(kind: .new, isFiltered: true, filterGeneration: 0)) }
    }
}
