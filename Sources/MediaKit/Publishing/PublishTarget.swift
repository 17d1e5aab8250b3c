/// Where `--publish` sends the stream: a media server's URL and the container its scheme calls
/// for — flv for `rtmp://` and `rtmps://`, RTSP (interleaved over TCP) for `rtsp://`, MPEG-TS for
/// `srt://`. A URL with ``channelPlaceholder`` in its path or query is a template: each channel
/// publishes to it with its name in place (``forChannel(_:)``).
public struct PublishTarget: Sendable, Equatable, CustomStringConvertible {
    public let url: String
    /// libavformat's muxer for the scheme.
    public let format: String
    /// The URL without credentials or query (stream keys and SRT passphrases stay out of logs).
    public let description: String

    static let formats = ["rtmp": "flv", "rtmps": "flv", "rtsp": "rtsp", "srt": "mpegts"]

    /// What a channel's name replaces in a template URL (`rtsp://mediamtx:8554/{channel}`).
    public static let channelPlaceholder = "{channel}"

    /// Whether every channel publishes, each to this URL with its name in place of
    /// ``channelPlaceholder``; otherwise only the default channel publishes, here.
    public var isPerChannel: Bool { url.contains(Self.channelPlaceholder) }

    /// Where channel `name` publishes: this URL with `name` in place of ``channelPlaceholder``
    /// (a channel name is URL-safe: `a-z 0-9 _ -`). Not a template: this target.
    public func forChannel(_ name: String) throws(MediaError) -> PublishTarget {
        isPerChannel ? try PublishTarget(url.replacing(Self.channelPlaceholder, with: name)) : self
    }

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
        if authority.contains("{") || authority.contains("}") {
            throw bad("\(Self.channelPlaceholder) belongs in the path or the query, not the host")
        }
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
