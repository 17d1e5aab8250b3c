import CastProtocol
import CWebSockets
import FilterKit
import Foundation
import MediaKit
import Synchronization
import Telemetry

/// The libwebsockets server: HTTP files and endpoints and the `/ws` protocol on one port, all
/// served by one thread.
///
/// Threading contract: every lws call and every `Connection` belong to the service thread. Other
/// threads only call `lws_cancel_service` (through `wake()`), which makes the service thread
/// look at the broadcaster, the clock and the stop flag.
public final class WebSocketServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    public let session: Session
    /// `--token`, checked in constant time.
    let accessToken: AccessToken?
    let broadcaster: Broadcaster
    let processor: FrameProcessor
    let files: StaticFiles
    let counters = TransportCounters()
    /// Everything `/metrics` shows.
    let metrics: Metrics
    /// Why recordings stopped by themselves, not yet told to the viewers (any thread → service thread).
    let recordingFailures = Mutex<[String]>([])

    // Set once in start(); read by other threads only through `wake()` and `port`.
    nonisolated(unsafe) private var context: OpaquePointer?
    private let listeningPort = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    nonisolated(unsafe) private var serviceThread: WorkerThread?
    nonisolated(unsafe) private var tickerThread: WorkerThread?
    /// C strings and the protocol table handed to lws: they must outlive the context.
    nonisolated(unsafe) private var retainedCStrings: [UnsafeMutablePointer<CChar>] = []
    nonisolated(unsafe) private var protocols: UnsafeMutablePointer<lws_protocols>?

    // Service thread only.
    var connections: [OpaquePointer: Connection] = [:]
    private var lastStateBroadcast = ContinuousClock.now
    /// The position when `state` was last broadcast. A seek takes effect on the decode thread
    /// after the command's own `state` went out, so a paused session broadcasts again once the
    /// position has moved (nothing else would send the new position while paused).
    private var lastBroadcastPosition: Double?
    /// Whether the source was online when `state` was last broadcast: going offline or back
    /// online is announced at once.
    private var lastBroadcastOnline = true

    /// Opens the source (errors surface here) and prepares the server; `start()` listens.
    public init(configuration: ServerConfiguration) throws {
        self.configuration = configuration
        accessToken = AccessToken(configuration.token)
        files = try StaticFiles(root: configuration.webRoot)
        var options = SourceOptions()
        options.outputSize = configuration.outputSize
        options.stallTimeout = configuration.stallTimeout
        options.cameraFormat = configuration.cameraFormat
        options.cameraRate = configuration.maxFPS
        let source = try configuration.input.open(options)
        source.onWarning = { Log.warning($0) }
        if case .testPattern = configuration.input {} else if source.info.isLive {
            // What a camera or stream actually delivers, which may differ from what was asked.
            Log.info("source opened", ["source": .string(source.info.name), "delivers": .string(source.info.delivered)])
        }
        let player = Player(source: source, options: configuration.playback,
                            reopen: configuration.input.reopener(options, width: source.info.width, height: source.info.height))
        let library = try MediaLibrary(recordingsPath: configuration.recording.directory,
                                       mediaPath: configuration.mediaDirectory)
        let wake = WakeSignal()
        let recorder = Recorder(width: player.info.width, height: player.info.height, frameRate: player.info.frameRate,
                                options: configuration.recording) { status in
            wake.server?.recordingEnded(status.error ?? "the recording stopped")
        }
        let publisher = configuration.publish.map { target in
            Publisher(target: target, width: player.info.width, height: player.info.height,
                      frameRate: player.info.frameRate, onChange: Self.logPublishing)
        }
        session = Session(player: player, input: configuration.input, filter: configuration.filter,
                          recorder: recorder, publisher: publisher, library: library,
                          inputOpener: configuration.input.opener(options, width: source.info.width, height: source.info.height))
        let maximumJPEGSize = try JPEGEncoder(width: player.info.width, height: player.info.height).maximumSize
        broadcaster = Broadcaster(maximumJPEGSize: maximumJPEGSize, wake: { wake.fire() })
        processor = FrameProcessor(session: session, broadcaster: broadcaster, quality: configuration.quality,
                                   maxFPS: configuration.maxFPS, filterThreads: configuration.filterThreads)
        metrics = Self.makeMetrics(player: player, processing: processor.counters, transport: counters, session: session)
        wake.server = self
    }

    /// The port the server listens on (useful with `port: 0`).
    public var port: Int { listeningPort.load(ordering: .acquiring) }

    /// Binds, then starts the network, processing and decode threads.
    public func start() throws {
        lws_set_log_level(Int32(LLL_ERR), nil)
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.iface = UnsafePointer(retain(configuration.host))
        info.protocols = UnsafePointer(makeProtocols())
        info.user = Unmanaged.passUnretained(self).toOpaque()
        info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8)
            | UInt64(LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE)
            | UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        // Idle HTTP connections (and slowloris headers) are dropped after this many seconds.
        info.timeout_secs = 10
        info.count_threads = 1
        info.fd_limit_per_thread = UInt32(max(64, configuration.maxClients + 32))
        info.vhost_name = UnsafePointer(retain("default"))
        guard let context = lws_create_context(&info) else {
            throw ServerError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use or not available)")
        }
        self.context = context
        let vhost = lws_get_vhost_by_name(context, "default")
        listeningPort.store(Int(lws_get_vhost_listen_port(vhost)), ordering: .releasing)

        session.publisher?.start()
        processor.start()
        session.player.start()
        if configuration.recordAtStart, let recorder = session.recorder {
            let status = try recorder.start(filtered: true)
            Log.info("recording to \(recorder.options.directory)/\(status.name ?? "") (\(status.encoder ?? ""))")
        }
        serviceThread = WorkerThread(name: "network") { [self] in serve() }
        tickerThread = WorkerThread(name: "ticker") { [self] in
            // Wakes the service thread four times a second: periodic state, timeouts, shutdown.
            while !stopped.load(ordering: .acquiring) {
                usleep(250_000)
                wake()
            }
        }
    }

    /// Graceful shutdown: close frames to every viewer, then the pipeline stops. Within ~1 s.
    public func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        serviceThread?.join()
        stopped.store(true, ordering: .releasing)
        tickerThread?.join()
        processor.stop()
        session.publisher?.stop()
        if let status = session.recorder?.stop() {
            Log.info("recording saved: \(status.name ?? "") (\((status.elapsed * 10).rounded() / 10) s, \(status.bytes) bytes)")
        }
        session.player.stop()
        if let context { lws_context_destroy(context) }
        context = nil
        retainedCStrings.forEach { free($0) }
        retainedCStrings = []
        protocols?.deallocate()
    }

    /// Any thread: makes the service thread run `serviceWoken()`.
    func wake() {
        if let context, !stopped.load(ordering: .acquiring) { lws_cancel_service(context) }
    }

    // MARK: - Service thread

    private func serve() {
        var closeDeadline: ContinuousClock.Instant?
        while true {
            if stopping.load(ordering: .acquiring) {
                let deadline = closeDeadline ?? .now + .milliseconds(700)
                closeDeadline = deadline
                if connections.isEmpty || ContinuousClock.now >= deadline { break }
            }
            if lws_service(context, 0) < 0 { break }
        }
    }

    /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`: a new frame, a tick, or the stop flag.
    func serviceWoken() {
        if stopping.load(ordering: .acquiring) {
            for (wsi, connection) in connections where connection.closing == nil {
                connection.closing = (Int32(LWSCloseStatus.goingAway), "server shutting down")
                lws_callback_on_writable(wsi)
            }
            return
        }
        tellRecordingFailures()
        let now = ContinuousClock.now
        let playback = session.player.playbackState
        if playback.isOnline != lastBroadcastOnline {
            broadcastState()
        } else if playback.isPlaying || session.recorder?.status.isActive == true {
            // While recording, the elapsed time and size move even when paused.
            if lastStateBroadcast.duration(to: now) >= .milliseconds(500) { broadcastState() }
        } else if playback.position != lastBroadcastPosition {
            broadcastState()
        }
        let latest = broadcaster.latestSequence ?? 0
        for (wsi, connection) in connections {
            switch connection.kind {
            case .viewer:
                if hasWork(connection, latest: latest) { lws_callback_on_writable(wsi) }
            case .mjpeg:
                if latest > connection.lastSent && lws_send_pipe_choked(wsi) == 0 { lws_callback_on_writable(wsi) }
            case .snapshot(let headOnly):
                if latest > connection.lastSent { answerSnapshot(wsi, headOnly: headOnly) }
            case .response:
                break
            }
        }
    }

    func hasWork(_ connection: Connection, latest: UInt64) -> Bool {
        connection.closing != nil || !connection.pendingText.isEmpty || connection.stateDue
            || (latest > connection.lastSent && connection.windowOpen(frameInterval: frameInterval)
                && connection.authorizedToWatch(configuration))
    }

    /// Any thread: a recording stopped by itself; the viewers are told on the service thread.
    func recordingEnded(_ reason: String) {
        Log.warning("recording stopped: \(reason)")
        recordingFailures.withLock { $0.append(reason) }
        wake()
    }

    /// Sends every viewer a `recording_failed` error for each recording that stopped by itself.
    private func tellRecordingFailures() {
        let reasons = recordingFailures.withLock { failures -> [String] in
            defer { failures.removeAll() }
            return failures
        }
        guard !reasons.isEmpty else { return }
        for (wsi, connection) in connections where connection.isViewer && connection.authorizedToWatch(configuration) {
            for reason in reasons {
                connection.enqueue(.error(ProtocolError(code: .recordingFailed, message: "recording stopped: \(reason)")))
            }
            lws_callback_on_writable(wsi)
        }
        broadcastState()
    }

    /// Marks a fresh `state` due for every viewer allowed to watch.
    func broadcastState() {
        lastStateBroadcast = .now
        let playback = session.player.playbackState
        lastBroadcastPosition = playback.position
        lastBroadcastOnline = playback.isOnline
        for (wsi, connection) in connections where connection.isViewer && connection.authorizedToWatch(configuration) {
            connection.stateDue = true
            lws_callback_on_writable(wsi)
        }
    }

    /// How often the session encodes a frame (from `--max-fps` or the source's rate).
    var frameInterval: Duration {
        let rate = configuration.maxFPS ?? session.player.info.frameRate ?? 30
        return .nanoseconds(Int64(1e9 / max(rate, 1)))
    }

    var viewerCount: Int { connections.values.reduce(0) { $0 + ($1.isViewer ? 1 : 0) } }

    var mjpegReaderCount: Int {
        connections.values.reduce(0) { count, connection in
            if case .mjpeg = connection.kind { return count + 1 }
            return count
        }
    }

    var currentState: SessionState { session.state(viewers: viewerCount, fps: processor.fps) }

    /// Keeps the processor's audience count and the client gauges in step with the connections.
    func audienceChanged() {
        let audience = connections.values.reduce(0) {
            $0 + ($1.wantsFrames && $1.authorizedToWatch(configuration) ? 1 : 0)
        }
        counters.viewers.set(viewerCount)
        counters.mjpegReaders.set(mjpegReaderCount)
        let before = processor.audience.exchange(audience, ordering: .relaxed)
        if before == 0 && audience > 0 {
            // Nothing was encoded while nobody watched: render the current frame for the newcomer
            // at once (it matters when paused; while playing the next frame follows anyway).
            session.rerenderRequested.store(true, ordering: .releasing)
            processor.poke()
        }
    }

    // MARK: - lws glue

    private func retain(_ string: String) -> UnsafeMutablePointer<CChar> {
        let copy = strdup(string)!
        retainedCStrings.append(copy)
        return copy
    }

    /// protocols[0] serves HTTP and also WebSocket clients that offer no subprotocol;
    /// protocols[1] is `filtercast.v1`. Both use the same callback.
    private func makeProtocols() -> UnsafeMutablePointer<lws_protocols> {
        let table = UnsafeMutablePointer<lws_protocols>.allocate(capacity: 3)
        table.initialize(repeating: lws_protocols(), count: 3)
        for (index, name) in ["http", ProtocolVersion.subprotocol].enumerated() {
            table[index].name = UnsafePointer(retain(name))
            table[index].callback = lwsCallback
            table[index].per_session_data_size = 0
            table[index].rx_buffer_size = 16 * 1024
        }
        protocols = table
        return table
    }
}

/// Carries `wake()` to the broadcaster before the server exists.
private final class WakeSignal: @unchecked Sendable {
    weak var server: WebSocketServer?
    func fire() { server?.wake() }
}

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
}

/// The C callback for every lws event: finds the server through the context's user pointer.
private func lwsCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                         _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let server = lws_context_user(context) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(server).takeUnretainedValue()
        .handle(wsi, reason, user, data, length)
}
