import CastServer
import Foundation

/// Where the server listens, checked before libwebsockets is asked to: lws takes any `iface`
/// text, says "iface … DOESN'T EXIST" for one it cannot use and goes on without listening, and
/// for a port in use prints lines of its own before failing.
public enum ListenAddress {
    /// `text` as an IPv4 address (lws here listens on IPv4 only): a dotted quad, or `localhost`.
    /// Nil for anything else.
    public static func parse(_ text: String) -> String? {
        if text == "localhost" { return "127.0.0.1" }
        var address = in_addr()
        return inet_pton(AF_INET, text, &address) == 1 ? text : nil
    }

    /// Whether `host` is a loopback address (127.0.0.0/8): only this machine can reach it.
    public static func isLoopback(_ host: String) -> Bool {
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// Binds a socket to `host:port` and closes it; throws, in one line saying why, when the
    /// server could not listen there (the port in use, an address this machine does not have,
    /// a port that needs privileges).
    static func checkBindable(host: String, port: Int) throws(ServerError) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError(description: "cannot open a socket: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result != 0 else { return }
        let reason = switch errno {
        case EADDRINUSE: "the port is in use (another server listens there)"
        case EADDRNOTAVAIL: "this machine has no address \(host)"
        case EACCES: "ports below 1024 need privileges"
        default: String(cString: strerror(errno))
        }
        throw ServerError(description: "cannot listen on \(host):\(port): \(reason)")
    }
}
