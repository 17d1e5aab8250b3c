import CastProtocol
import Foundation
import Logging
import MediaKit
import Telemetry

/// A connection's name in the core, unique while it is open (the lws adapter uses the address
/// of its connection; tests any number).
typealias ConnectionID = Int

/// The server without sockets: the route table, the viewers' sessions, who watches what (and
/// what that demands of the outputs), the state fan-out and the camera sharing. The lws adapter
/// (`WebSocketServer`) turns each lws event into one call here and writes what it is handed back;
/// tests make the same calls with a clock they move.
///
/// Threads: the service thread only (a test's own thread in tests). Other threads reach it
/// through ``NetworkWake``, whose ring makes the adapter call ``woken(queuedBytes:)``.
final class ServerCore {
    let configuration: ServerConfiguration
    let session: Session
    let outputs: ViewerOutputs
    let counters: TransportCounters
    /// What other threads leave for the network thread (recordings that stopped by themselves).
    let wake: NetworkWake
    /// `--token`, checked in constant time.
    let accessToken: AccessToken?
    /// What `hello` offers besides the renditions.
    let features: ServerFeatures
    /// `--uploads`: the uploads under way and their probes (nil: none taken).
    let uploadDesk: UploadDesk?
    /// Every HTTP route and the access each needs.
    private(set) var router: Router
    let now: () -> ContinuousClock.Instant

    /// The `/ws` viewers.
    var viewers: [ConnectionID: ViewerConnection] = [:]
    /// MJPEG readers and snapshots waiting for a frame: HTTP connections the adapter serves, which
    /// count in the audience of a JPEG rendition.
    var watchers: [ConnectionID: HTTPWatcher] = [:]
    /// Uploads whose body is arriving or being probed, by connection.
    var uploads: [ConnectionID: UploadReceiver] = [:]
    /// Connections that have something to write: the adapter asks lws for their writable callbacks.
    var writeRequests = Set<ConnectionID>()
    var stateSchedule: StateBroadcastSchedule
    /// When viewers' delivery was last judged.
    var lastAdaptation: ContinuousClock.Instant

    /// A core for `session`'s viewers of `outputs`; `metrics` and `files` are what `/metrics` and
    /// the page's routes serve. With the session's library taking uploads (`--uploads`), the core
    /// takes them within `maxUploadBytes` and `configuration`'s free-space reserve.
    init(configuration: ServerConfiguration, session: Session, outputs: ViewerOutputs, counters: TransportCounters,
         metrics: Metrics, files: StaticFiles, wake: NetworkWake,
         now: @escaping () -> ContinuousClock.Instant = { .now }) {
        self.configuration = configuration
        self.session = session
        self.outputs = outputs
        self.counters = counters
        self.wake = wake
        self.now = now
        accessToken = AccessToken(configuration.token)
        uploadDesk = session.library?.uploads.map { _ in
            UploadDesk(policy: UploadPolicy(maxBytes: configuration.maxUploadBytes, reserveBytes: configuration.recording.minimumFreeBytes))
        }
        features = ServerFeatures(mediaFolder: session.library?.media != nil,
                                  uploads: uploadDesk.map { UploadOffer(maxBytes: $0.policy.maxBytes) },
                                  audio: outputs.audio.map { _ in SourceAudio.wire })
        router = Router(routes: [], access: AccessPolicy(token: accessToken, publicView: configuration.publicView),
                        allowedOrigins: configuration.allowedOrigins)
        stateSchedule = StateBroadcastSchedule(now: now())
        lastAdaptation = now()
        // The handlers read this core's state (the viewer count, the client limit): made once it is.
        let context = RouteContext(session: session, outputs: outputs, metrics: metrics, files: files,
                                   takesUploads: features.uploads != nil, state: { [unowned self] in currentState },
                                   atClientLimit: { [unowned self] in atClientLimit(address: $0.address) })
        router = Router(routes: ServerRoutes.table(context), access: router.access, allowedOrigins: router.allowedOrigins)
    }

    /// The write requests made since the last call (the adapter turns each into a writable callback).
    func takeWriteRequests() -> Set<ConnectionID> {
        defer { writeRequests.removeAll(keepingCapacity: true) }
        return writeRequests
    }

    func requestWrite(_ id: ConnectionID) { writeRequests.insert(id) }

    /// How often the session encodes a frame (from `--max-fps` or the source's rate).
    var frameInterval: Duration { session.frameInterval(maxFPS: configuration.maxFPS) }

    /// What the outputs hold now, on this core's clock.
    var supply: FrameSupply {
        var supply = outputs.supply
        supply.now = now()
        return supply
    }

    var viewerCount: Int { viewers.count }

    var mjpegReaderCount: Int { watchers.values.reduce(0) { $0 + ($1 == .snapshot ? 0 : 1) } }

    /// The state as every viewer and `/api/state` see it.
    var currentState: SessionState {
        var state = session.state(viewers: viewerCount, fps: outputs.fps)
        state.renditions = outputs.uses
        return state
    }

    /// Whether `--max-clients` viewers and MJPEG readers are connected (then logs the refusal
    /// of the client at `address`).
    func atClientLimit(address: String) -> Bool {
        guard viewerCount + mjpegReaderCount >= configuration.maxClients else { return false }
        Log.warning("client refused: --max-clients reached",
                    ["address": .string(address), "max_clients": .int(configuration.maxClients)])
        return true
    }
}

/// A `/ws` viewer: its rules (``ViewerSession``) and what the log says of it.
final class ViewerConnection {
    let session: ViewerSession
    let address: String
    let connectedAt: ContinuousClock.Instant

    init(session: ViewerSession, address: String, connectedAt: ContinuousClock.Instant) {
        self.session = session
        self.address = address
        self.connectedAt = connectedAt
    }
}

/// An HTTP client that watches a JPEG rendition without being a viewer.
enum HTTPWatcher: Equatable {
    /// A `/stream.mjpg` reader of JPEG rendition `rendition`.
    case mjpeg(rendition: Int)
    /// A `/snapshot.jpg` waiting for the next full-size frame.
    case snapshot

    var rendition: Int {
        switch self {
        case .mjpeg(let rendition): rendition
        case .snapshot: 0
        }
    }
}
