/// Where `--publish` sends the stream: a media server's URL and the container its scheme calls
/// for — flv for `rtmp://` and `rtmps://`, RTSP (interleaved over TCP) for `rtsp://`, MPEG-TS for
/// `srt://`.
public struct PublishTarget: Sendable, Equatable, CustomStringConvertible {
    public let url: String
    /// libavformat's muxer for the scheme.
    public let format: String
    /// The URL without credentials or query (stream keys and SRT passphrases stay out of logs).
    public let description: String

    static let formats = ["rtmp": "flv", "rtmps": "flv", "rtsp": "rtsp", "srt": "mpegts"]

    /// Validates `url`: a known scheme, a host, a port in 1…65535 when given (SRT needs one).
    /// The error names the problem.
    public init(_ url: String) throws(MediaError) {
        let bad = { (problem: String) -> MediaError in
            .invalidInput("must be rtmp://, rtmps://, rtsp:// or srt://HOST[:PORT][/PATH] (\(problem)), got '\(url)'")
        }
        guard let separator = url.range(of: "://") else { throw bad("no scheme") }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard let format = Self.formats[scheme] else { throw bad("unsupported scheme '\(scheme)'") }
        guard !url.contains(where: { $0.isWhitespace || $0.isNewline }) else { throw bad("spaces are not allowed") }
        let rest = url[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let afterAuthority = rest.dropFirst(authority.count)
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        var host = Substring(hostPort)
        var port: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw bad("unclosed '[' in the host") }
            host = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            let tail = hostPort[hostPort.index(after: close)...]
            if !tail.isEmpty {
                guard tail.hasPrefix(":") else { throw bad("junk after the host") }
                port = tail.dropFirst()
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = hostPort[..<colon]
            port = hostPort[hostPort.index(after: colon)...]
        }
        guard !host.isEmpty else { throw bad("no host") }
        if let port {
            guard let number = Int(port), (1...65535).contains(number) else { throw bad("the port must be 1…65535") }
        } else if scheme == "srt" {
            throw bad("srt:// needs a port")
        }
        self.url = url
        self.format = format
        let path = afterAuthority.prefix { $0 != "?" }
        description = "\(scheme)://\(hostPort)\(path)"
    }
}
