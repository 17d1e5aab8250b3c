import CastServer
import CastProtocol
import CWebSockets
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization
import Telemetry

/// The libwebsockets adapter: one port for HTTP and the `/ws` protocol, served by one thread.
/// It translates each lws event into a call on the ``ServerCore`` and writes what the core hands
/// back; it serves the HTTP bodies the core names (files, snapshots, MJPEG parts, uploads).
///
/// Threading contract: every lws call, the core and every `Connection` belong to the service
/// thread. Other threads only ring the ``NetworkWake`` (`lws_cancel_service`), which makes the
/// service thread look at the outputs, the clock and the stop flag.
public final class WebSocketServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    let core: ServerCore
    /// How other threads wake the service thread (armed while lws runs).
    let networkWake: NetworkWake

    // Set once in listen(); read by other threads only through `port`.
    nonisolated(unsafe) private var context: OpaquePointer?
    private let listeningPort = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let stopped = Atomic<Bool>(false)
    nonisolated(unsafe) private var serviceThread: WorkerThread?
    nonisolated(unsafe) private var tickerThread: WorkerThread?
    /// C strings and the protocol table handed to lws: they must outlive the context.
    nonisolated(unsafe) private var retainedCStrings: [UnsafeMutablePointer<CChar>] = []
    nonisolated(unsafe) private var protocols: UnsafeMutablePointer<lws_protocols>?

    /// HTTP connections with something under way (service thread only); viewers are the core's.
    var connections: [OpaquePointer: Connection] = [:]

    /// The lws adapter of `core`. `listen()` binds.
    init(configuration: ServerConfiguration, core: ServerCore, wake: NetworkWake) {
        self.configuration = configuration
        self.core = core
        networkWake = wake
    }

    /// The port the server listens on (useful with `port: 0`).
    public var port: Int { listeningPort.load(ordering: .acquiring) }

    /// Binds: a port in use, an address this machine lacks or one lws cannot use throws here,
    /// and with TLS a certificate or key lws' OpenSSL refuses (the files were checked already:
    /// `TLSFiles.check()`). Each in one line: lws' own lines about it show at `debug` only.
    func listen() throws {
        precondition(EncodedFrame.headroom >= Int(CWebSockets_LWS_PRE()), "this lws wants more headroom before a frame than EncodedFrame leaves")
        WebSocketsLog.install()
        try ListenAddress.checkBindable(host: configuration.host, port: configuration.port)
        var info = lws_context_creation_info()
        info.port = Int32(configuration.port)
        info.iface = UnsafePointer(retain(configuration.host))
        info.protocols = UnsafePointer(makeProtocols())
        info.user = Unmanaged.passUnretained(self).toOpaque()
        // The security headers are SecurityHeaders' (lws' own option sends them to every answer
        // alike: /embed could not be framed).
        info.options = UInt64(LWS_SERVER_OPTION_VALIDATE_UTF8) | UInt64(LWS_SERVER_OPTION_DISABLE_IPV6)
        // Idle HTTP connections (and slowloris headers) are dropped after this many seconds.
        info.timeout_secs = UInt32(configuration.httpTimeoutSeconds)
        info.timeout_secs_ah_idle = UInt32(configuration.httpTimeoutSeconds)
        info.count_threads = 1
        info.fd_limit_per_thread = UInt32(max(64, configuration.maxClients + 32))
        // What one read from a socket takes (lws' default is 4 KB): an upload's body arrives in
        // pieces of this size, each a callback and a write(2). With 64 KB a 100 MB upload went
        // ~15% faster, as fast as a plain TCP sink on loopback.
        info.pt_serv_buf_size = 64 * 1024
        info.vhost_name = UnsafePointer(retain("default"))
        if let tls = configuration.tls { useTLS(tls, &info) }
        let context = try createContext(&info)
        self.context = context
        let address = Int(bitPattern: UnsafeRawPointer(context))
        networkWake.arm { lws_cancel_service(OpaquePointer(bitPattern: address)) }
        let vhost = lws_get_vhost_by_name(context, "default")
        let listening = Int(lws_get_vhost_listen_port(vhost))
        guard listening > 0 else {
            release()
            throw ServerError(description: "cannot listen on \(configuration.host):\(configuration.port)")
        }
        listeningPort.store(listening, ordering: .releasing)
    }

    /// `lws_create_context`, its failure in one line: with TLS, what lws' OpenSSL refused (from
    /// the lines lws logged meanwhile, which then show at `debug` only).
    private func createContext(_ info: inout lws_context_creation_info) throws(ServerError) -> OpaquePointer {
        let (created, lines) = WebSocketsLog.holdingLines { lws_create_context(&info) }
        guard let context = created else {
            WebSocketsLog.release(lines, at: .debug)
            throw configuration.tls?.contextFailure(lines.map(\.message))
                ?? ServerError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use or not available)")
        }
        WebSocketsLog.release(lines)
        return context
    }

    /// HTTPS and WSS on the one port, with lws' OpenSSL. Plain HTTP arriving there is redirected
    /// to https://HOST:PORT/ by lws (which needs plain text allowed on the TLS port to see it;
    /// it serves it nothing else, and `ws://` upgrades are refused: `refusePlainUpgrade`).
    /// HTTP/1.1 only: lws would offer HTTP/2 by ALPN, and with it WebSockets over h2 streams,
    /// which the transport (one socket per viewer: its TCP round trip, `--max-clients`) is not
    /// made for.
    private func useTLS(_ files: TLSFiles, _ info: inout lws_context_creation_info) {
        info.options |= UInt64(LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT)
            | CWebSockets_LWS_SERVER_OPTION_ALLOW_NON_SSL_ON_SSL_PORT | CWebSockets_LWS_SERVER_OPTION_REDIRECT_HTTP_TO_HTTPS
        info.ssl_cert_filepath = UnsafePointer(retain(files.certificate))
        info.ssl_private_key_filepath = UnsafePointer(retain(files.privateKey))
        info.alpn = UnsafePointer(retain("http/1.1"))
    }

    /// Starts the network thread and the ticker that wakes it four times a second (periodic
    /// state, timeouts, shutdown).
    func serve() {
        serviceThread = WorkerThread(name: "network") { [self] in serviceLoop() }
        tickerThread = WorkerThread(name: "ticker") { [self] in
            while !stopped.load(ordering: .acquiring) {
                usleep(250_000)
                wake()
            }
        }
    }

    /// Close frames to every viewer (0.7 s at most), then the network and ticker threads end.
    /// Other threads may still call `wake()` until `release()`.
    func closeConnections() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake()
        serviceThread?.join()
        stopped.store(true, ordering: .releasing)
        tickerThread?.join()
    }

    /// Lets go of lws; after `closeConnections()` and once nothing else calls `wake()`.
    func release() {
        networkWake.disarm()
        if let context { lws_context_destroy(context) }
        context = nil
        retainedCStrings.forEach { free($0) }
        retainedCStrings = []
        protocols?.deallocate()
        protocols = nil
    }

    /// Any thread: makes the service thread run `serviceWoken()`.
    func wake() { networkWake.ring() }

    // MARK: - Service thread

    private func serviceLoop() {
        var closeDeadline: ContinuousClock.Instant?
        while true {
            if stopping.load(ordering: .acquiring) {
                let deadline = closeDeadline ?? .now + .milliseconds(700)
                closeDeadline = deadline
                if (connections.isEmpty && core.viewers.isEmpty) || ContinuousClock.now >= deadline { break }
            }
            if lws_service(context, 0) < 0 { break }
        }
    }

    /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`: a new frame, a tick, or the stop flag.
    func serviceWoken() {
        if stopping.load(ordering: .acquiring) {
            core.shutDown()
            for (wsi, connection) in connections {
                connection.closing = true
                lws_callback_on_writable(wsi)
            }
            return
        }
        answerPendingRequests()
        let supplies = core.woken(queuedBytes: { [self] in wsi($0).flatMap(queuedBytes) })
        for (wsi, connection) in connections {
            if let channel = connection.kind.channel, core.channels[channel.name] !== channel {
                // Its channel was removed: cut at the next writable callback.
                connection.closing = true
                lws_callback_on_writable(wsi)
                continue
            }
            switch connection.kind {
            case .mjpeg(let channel, let rendition):
                if supplies[channel.name]?.jpeg[rendition] ?? 0 > connection.lastSent && lws_send_pipe_choked(wsi) == 0 {
                    lws_callback_on_writable(wsi)
                }
            case .snapshot(let channel, let rendition, let headOnly):
                // A channel that went idle meanwhile gives its last real picture.
                if supplies[channel.name]?.jpeg[rendition] ?? 0 > connection.lastSent || channel.session.playback.isIdle {
                    answerSnapshot(wsi, of: channel, rendition: rendition, headOnly: headOnly)
                }
            case .response, .file:
                break
            }
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
            // A message goes to send() whole (lws' default caps a send at rx_buffer_size): a
            // `hello` over 16 KB (the catalog grows) was left half-sent, and a client's protocol
            // violation then closed the socket without its close frame.
            table[index].tx_packet_size = 1 << 20
        }
        protocols = table
        return table
    }
}

/// The C callback for every lws event: finds the server through the context's user pointer.
private func lwsCallback(_ wsi: OpaquePointer?, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                         _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let server = lws_context_user(context) else { return 0 }
    return Unmanaged<WebSocketServer>.fromOpaque(server).takeUnretainedValue()
        .handle(wsi, reason, user, data, length)
}
