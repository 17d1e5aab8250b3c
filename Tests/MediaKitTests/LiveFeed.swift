import Foundation

/// A live network stream fed by the `ffmpeg` CLI in real time (`-re`): the test pattern as
/// H.264 in MPEG-TS, either to UDP or served on a listening TCP socket. It can be stopped and
/// started again at will, like a camera or a broadcast that goes away and comes back.
final class LiveFeed: @unchecked Sendable {
    enum Transport { case tcp, udp }

    let transport: Transport
    let port: Int
    /// The running ffmpeg.
    private var process: ChildProcess?

    init(_ transport: Transport, width: Int = 160, height: Int = 120, rate: Int = 25) {
        self.transport = transport
        port = LiveFeed.freePort(udp: transport == .udp)
        arguments = ["-nostdin", "-hide_banner", "-loglevel", "error", "-re",
                     "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(rate)",
                     "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "\(rate / 2)",
                     "-pix_fmt", "yuv420p", "-f", "mpegts",
                     transport == .tcp ? "tcp://127.0.0.1:\(port)?listen=1" : "udp://127.0.0.1:\(port)?pkt_size=1316"]
    }

    private let arguments: [String]

    /// The URL a client opens to watch it.
    var url: String {
        transport == .tcp ? "tcp://127.0.0.1:\(port)" : "udp://127.0.0.1:\(port)"
    }

    func start() throws {
        process = try ChildProcess([TestClips.ffmpegPath] + arguments)
    }

    /// Ends the stream: ffmpeg is killed (a TCP viewer sees the connection close; a UDP one,
    /// silence).
    func stop() {
        process?.kill()
        process = nil
    }

    deinit { stop() }

    /// A port nobody uses now (bound to 0, read back, released).
    static func freePort(udp: Bool) -> Int {
        let fd = socket(AF_INET, Int32(udp ? SOCK_DGRAM.rawValue : SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
