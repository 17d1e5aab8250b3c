import CastServer
import FilterKit
import Foundation
import Logging
import MediaKit
import StyleKit

/// `filtercast serve`: the live preview server (also what `filtercast` alone runs).
enum ServeCommand: Subcommand {
    static let spec = CommandSpec(
        name: "serve",
        summary: "Serve the live, filtered preview to browsers over WebSocket (the default subcommand).",
        usage: "filtercast serve [--input SRC] [--channel NAME=INPUT …] [--host H] [--port P] [--filter NAME [--param K=V …] …] [OPTIONS]",
        options: [inputOption] + ChannelOptions.specs + [
                  OptionSpec(name: "--host", valueName: "ADDR", help: "IPv4 address to listen on (default 127.0.0.1; 0.0.0.0 for all)."),
                  OptionSpec(name: "--port", valueName: "P", help: "Port (default 8080; 0 picks a free one)."),
                  OptionSpec(name: "--tls-cert", valueName: "FILE",
                             help: "Serve HTTPS and WSS with this PEM certificate (or full chain); needs --tls-key. Plain HTTP is redirected."),
                  OptionSpec(name: "--tls-key", valueName: "FILE", help: "The unencrypted PEM private key of --tls-cert."),
                  OptionSpec(name: "--quality", valueName: "Q", help: "JPEG quality 1…100 (default 80)."),
                  OptionSpec(name: "--max-fps", valueName: "N", help: "Encode at most N frames a second (default: the source's rate); a camera is asked for N."),
                  OptionSpec(name: "--size", valueName: "WxH", help: "Scale frames to this size (keeping their shape: black bars); a camera is asked for it."),
                  OptionSpec(name: "--speed", valueName: "X", help: "Playback speed of files, 0.1…16 (default 1; other than 1: no sound, it is not time-stretched)."),
                  OptionSpec(name: "--no-loop", valueName: nil, help: "Stop on the last frame of a file instead of looping."),
                  OptionSpec(name: "--camera-format", valueName: "FMT",
                             help: "Pixel format to ask a camera for: mjpeg, yuyv422, h264, … (see 'filtercast devices')."),
                  OptionSpec(name: "--stall-timeout", valueName: "S",
                             help: "A live source that gives no frame for S seconds is offline and reconnected (default 5)."),
                  OptionSpec(name: "--open-timeout", valueName: "S",
                             help: "Give up opening an input (connecting, reading its header) after S seconds (default 10)."),
                  OptionSpec(name: "--http-timeout", valueName: "S",
                             help: "Drop an HTTP connection that sends or takes nothing for S seconds, 2…600 (default 10): idle keep-alive, slow headers, a stalled download."),
                  OptionSpec(name: "--step-cache", valueName: "MB",
                             help: "Decoded pictures a channel keeps around the playhead for frame steps, 0…4096 MB (default 256; 0: none)."),
                  ] + LadderOptions.specs + FilterOptions.specs + [
                  OptionSpec(name: "--web", valueName: "DIR", help: "Folder of the web page (default: web/ of this checkout)."),
                  OptionSpec(name: "--token", valueName: "T", help: "Require this token for control commands (?token=T, an auth message, or Authorization: Bearer T over HTTP)."),
                  OptionSpec(name: "--admin-token", valueName: "T",
                             help: "This token may also add and remove channels at run time (PUT/DELETE /api/channels/NAME); it controls everything --token does."),
                  OptionSpec(name: "--public-view", valueName: nil, help: "With --token: let viewers without the token watch."),
                  OptionSpec(name: "--allow-origin", valueName: "ORIGIN", help: "Also accept WebSocket pages from ORIGIN (repeatable).",
                             repeatable: true),
                  OptionSpec(name: "--filter-threads", valueName: "N", help: "Threads a filter may split a frame over, in bands of rows or columns (default 1)."),
                  OptionSpec(name: "--max-clients", valueName: "N", help: "Most simultaneous viewers and streams (default 200)."),
                  OptionSpec(name: "--log-level", valueName: "LEVEL", help: "error, warn, info (default) or debug (adds FFmpeg's warnings)."),
                  OptionSpec(name: "--log-format", valueName: "FORMAT", help: "text (default) or json: one object per line."),
                  OptionSpec(name: "--record", valueName: nil, help: "Start recording the filtered frames at once."),
                  DataFolder.spec,
                  OptionSpec(name: "--recordings", valueName: "DIR", help: "Folder of the recordings (default DATA/recordings)."),
                  OptionSpec(name: "--max-record-size", valueName: "SIZE",
                             help: "Stop a recording at this size: bytes, or with k, M or G (1000s); default none."),
                  OptionSpec(name: "--min-free-space", valueName: "SIZE",
                             help: "Refuse to record, and stop, under this much free disk (default 500M)."),
                  OptionSpec(name: "--allow-source", valueName: "PATTERNS",
                             help: "URLs clients may open, * for any run of characters, comma-separated, e.g. rtsp://cams.local/* (default none)."),
                  OptionSpec(name: "--max-ingest-bitrate", valueName: "BITS",
                             help: "The most a viewer's shared camera may send, bits a second with k or M (default 8M)."),
                  OptionSpec(name: "--record-rendition", valueName: "ID",
                             help: "Record the filtered frames as the page's H.264 rendition ID, one encode for both (default own: an encode of its own)."),
                  OptionSpec(name: "--media-dir", valueName: "DIR", help: "Folder of media files clients may browse and open (read-only; the page's Sources panel)."),
                  OptionSpec(name: "--uploads", valueName: "DIR",
                             help: "Folder controlling clients upload video files into and play them from (default DATA/uploads; made at the first upload), or off."),
                  LUTOptions.spec, StyleOptions.spec, StyleOptions.firstUseSpec,
                  OptionSpec(name: "--looks", valueName: "DIR",
                             help: "Folder of the saved looks, NAME.json each (default DATA/looks; made when first written), read at start."),
                  OptionSpec(name: "--comments", valueName: "DIR",
                             help: "Folder of the comments with drawings, one file per source (default DATA/comments; made when first written)."),
                  OptionSpec(name: "--max-upload-size", valueName: "SIZE",
                             help: "The largest upload: bytes, or with k, M or G (1000s); default 2G."),
                  OptionSpec(name: "--publish", valueName: "URL",
                             help: "Also push the filtered stream as H.264, with the sound as AAC, to a media server: rtmp://, rtsp:// or srt:// (reconnects); "
                                 + "with {channel} in the path, every channel to its own (rtsp://host:8554/{channel})."),
                  OptionSpec(name: "--publish-rendition", valueName: "ID",
                             help: "The page's H.264 rendition the pushed stream is, one encode for both (default: the full-size one), or own."),
        ],
        readsEnvironment: true)

    static func run(_ options: ParsedOptions) throws {
        // Before any other thread exists: every thread inherits the blocked stop signals.
        let stopSignals = StopSignals()
        Log.ignoreBrokenPipes()
        let configuration = try configuration(from: options)
        warnAboutExposure(configuration)

        let server = try Application(configuration: configuration)
        try server.start()
        stopSignals.serving()
        let info = server.source
        let shownHost = configuration.host == "0.0.0.0" ? "127.0.0.1" : configuration.host
        let url = "\(configuration.tls == nil ? "http" : "https")://\(shownHost):\(server.port)/"
        let data = configuration.dataFolder ?? ""
        // In text the URL stays last on the ready line (scripts take it from there) and the data
        // folder follows on a line of its own; in JSON the ready line's object holds both.
        Log.announce("serving \(info.name) (\(info.width)x\(info.height)) at \(url)",
                     ["url": .string(url), "source": .string(info.name), "width": .int(info.width), "height": .int(info.height),
                      "data": .string(data)])
        if Log.format == .text { Log.announce("data in \(data) (recordings, looks, LUTs, styles, uploads)") }
        for channel in server.channels.dropFirst() {
            let info = channel.session.player.info
            Log.info("channel \(channel.name): \(info.name) (\(info.width)x\(info.height)) at \(url)?channel=\(channel.name)",
                     ["channel": .string(channel.name.description), "source": .string(info.name)])
        }
        StyleOptions.warmUp(options)

        let reason = stopSignals.wait()
        Log.info("\(reason), shutting down")
        server.stop()
        StyleOptions.stop(within: .seconds(5))
    }

    /// Everything the options and `FILTERCAST_*` variables say, validated.
    static func configuration(from options: ParsedOptions) throws -> ServerConfiguration {
        var configuration = ServerConfiguration(webRoot: "")
        try ChannelOptions.apply(options, to: &configuration)
        configuration.host = try parseHost(options)
        configuration.port = try options.int("--port", in: 0...65535) ?? 8080
        configuration.tls = try parseTLS(options)
        configuration.quality = try options.int("--quality", in: 1...100) ?? 80
        configuration.maxFPS = try options.double("--max-fps", in: 1...240)
        configuration.outputSize = try options.string("--size").map { try parseSize($0, source: options.source("--size")) }
        try applyDataFolder(options, to: &configuration)
        configuration.filter = try FilterOptions.chain(from: options, catalog: configuration.catalog)
        try ChannelOptions.applyFile(options, to: &configuration)
        try ChannelOptions.applyOnDemand(options, to: &configuration)
        try LadderOptions.apply(options, to: &configuration)
        configuration.token = options.string("--token")
        configuration.adminToken = options.string("--admin-token")
        configuration.publicView = options.has("--public-view")
        configuration.allowedOrigins = try options.entries.filter { $0.name == "--allow-origin" }
            .map { try parseOrigin($0.value, source: options.source("--allow-origin")) }
        configuration.maxClients = try options.int("--max-clients", in: 1...10_000) ?? 200
        configuration.filterThreads = try options.int("--filter-threads", in: 1...64) ?? 1
        configuration.playback.speed = try options.double("--speed", in: PlaybackOptions.speedRange) ?? 1
        configuration.playback.loops = !options.has("--no-loop")
        configuration.recording.maximumBytes = try options.string("--max-record-size").map { try parseByteCount($0, options.source("--max-record-size")) }
        configuration.recording.minimumFreeBytes = try options.string("--min-free-space")
            .map { try parseByteCount($0, options.source("--min-free-space")) } ?? 500_000_000
        configuration.recordAtStart = options.has("--record")
        configuration.mediaDirectory = options.string("--media-dir")
        configuration.maxUploadBytes = try options.string("--max-upload-size")
            .map { try parseByteCount($0, options.source("--max-upload-size")) } ?? 2_000_000_000
        configuration.cameraFormat = options.string("--camera-format")
        configuration.publish = try parsePublish(options)
        configuration.publishRendition = options.string("--publish-rendition").map { $0 == "own" ? .own : .named($0) } ?? .sourceSize
        configuration.allowedSources = try parseAllowedSources(options)
        if let bits = try options.string("--max-ingest-bitrate").map({ try parseByteCount($0, options.source("--max-ingest-bitrate")) }) {
            guard (100_000...100_000_000).contains(bits) else {
                throw UsageError(description: "\(options.source("--max-ingest-bitrate")) must be 100k…100M bits a second, got \(bits)")
            }
            configuration.ingestLimits.bitsPerSecond = Int(bits)
        }
        configuration.recordRendition = options.string("--record-rendition").map { $0 == "own" ? .own : .named($0) } ?? .own
        if let stall = try options.double("--stall-timeout", in: 0.5...600) { configuration.stallTimeout = .seconds(stall) }
        if let open = try options.double("--open-timeout", in: 0.5...600) { configuration.openTimeout = .seconds(open) }
        if let seconds = try options.int("--http-timeout", in: 2...600) { configuration.httpTimeoutSeconds = Int32(seconds) }
        if let megabytes = try options.int("--step-cache", in: 0...4096) { configuration.stepCacheBytes = megabytes << 20 }
        if configuration.token?.isEmpty == true { throw UsageError(description: "\(options.source("--token")) must not be empty") }
        if configuration.adminToken?.isEmpty == true { throw UsageError(description: "\(options.source("--admin-token")) must not be empty") }
        if let admin = configuration.adminToken, admin == configuration.token {
            throw UsageError(description: "\(options.source("--admin-token")) must differ from --token: it grants more")
        }
        if configuration.publicView && configuration.token == nil {
            throw UsageError(description: "\(options.source("--public-view")) needs --token: without a token everyone may watch and control already")
        }
        configuration.webRoot = try webRoot(options.string("--web"))
        return configuration
    }

    /// The data folder and its parts (each folder option overrides its own), the LUTs, looks,
    /// styles and backgrounds read from theirs, and the catalog with the filters over them.
    private static func applyDataFolder(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        let data = try DataFolder.path(options)
        configuration.dataFolder = data
        configuration.recording.directory = DataFolder.part("recordings", option: "--recordings", of: options, data: data)
        configuration.uploadsDirectory = options.string("--uploads") == "off"
            ? nil : DataFolder.part("uploads", option: "--uploads", of: options, data: data)
        configuration.luts = try LUTOptions.folder(options, default: data + "/luts")
        configuration.looks = try lookFolder(DataFolder.part("looks", option: "--looks", of: options, data: data))
        configuration.commentsDirectory = DataFolder.part("comments", option: "--comments", of: options, data: data)
        let styles = try StyleOptions.folder(options, default: data + "/styles")
        configuration.styles = styles
        let backgrounds = try StyleOptions.backgrounds(at: data + "/backgrounds")
        configuration.backgrounds = backgrounds
        configuration.catalog = LUTOptions.catalog(StyleOptions.catalog(with: styles, backgrounds: backgrounds), with: configuration.luts)
    }

    /// A server that others can reach and that needs no token lets all of them control it.
    private static func warnAboutExposure(_ configuration: ServerConfiguration) {
        guard configuration.token == nil, !ListenAddress.isLoopback(configuration.host) else { return }
        Log.warning("listening on \(configuration.host) without --token: anyone who can reach this address may watch and control the stream")
    }

    /// `--host`: an IPv4 address (or `localhost`).
    private static func parsePublish(_ options: ParsedOptions) throws -> PublishTarget? {
        try options.string("--publish").map { url in
            do throws(MediaError) {
                return try PublishTarget(url)
            } catch {
                throw UsageError(description: "\(options.source("--publish")) \(error)")
            }
        }
    }

    /// `--allow-source`: comma-separated URL patterns; none when not given.
    private static func parseAllowedSources(_ options: ParsedOptions) throws -> [SourcePattern] {
        try options.string("--allow-source").map { text in
            try text.split(separator: ",").map { part in
                guard let pattern = SourcePattern(part.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError(description: "\(options.source("--allow-source")) must be URL patterns with a scheme, "
                        + "such as rtsp://cams.local/*, got '\(part)'")
                }
                return pattern
            }
        } ?? []
    }

    /// The looks folder at `path`, read: a file that is not a look stops the start, named.
    private static func lookFolder(_ path: String) throws -> LookFolder {
        do {
            return try LookFolder(path: path)
        } catch {
            throw UsageError(description: error.description)
        }
    }

    private static func parseHost(_ options: ParsedOptions) throws -> String {
        guard let text = options.string("--host") else { return "127.0.0.1" }
        guard let host = ListenAddress.parse(text) else {
            throw UsageError(description: "\(options.source("--host")) must be an IPv4 address such as 127.0.0.1 or 0.0.0.0 (all), got '\(text)'")
        }
        return host
    }

    /// `--tls-cert` and `--tls-key`: both or neither (their files are checked when the server starts).
    private static func parseTLS(_ options: ParsedOptions) throws -> TLSFiles? {
        let certificate = try tlsPath(options, "--tls-cert"), key = try tlsPath(options, "--tls-key")
        switch (certificate, key) {
        case (nil, nil):
            return nil
        case let (certificate?, key?):
            return TLSFiles(certificate: certificate, privateKey: key)
        case (_?, nil):
            throw UsageError(description: "\(options.source("--tls-cert")) needs --tls-key (or FILTERCAST_TLS_KEY) too: the certificate's private key")
        case (nil, _?):
            throw UsageError(description: "\(options.source("--tls-key")) needs --tls-cert (or FILTERCAST_TLS_CERT) too: the key's certificate")
        }
    }

    private static func tlsPath(_ options: ParsedOptions, _ name: String) throws -> String? {
        guard let path = options.string(name) else { return nil }
        if path.isEmpty { throw UsageError(description: "\(options.source(name)) must name a file") }
        return path
    }

    /// `--allow-origin`: `scheme://host[:port]`, as browsers send it in `Origin` (no path, no slash).
    static func parseOrigin(_ text: String, source: String) throws -> String {
        let problem = "\(source) must be an origin such as https://example.com or http://10.0.0.5:8080 (scheme://host[:port], no path), got '\(text)'"
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty,
              components.path.isEmpty, components.query == nil, components.fragment == nil,
              components.user == nil, components.password == nil else {
            throw UsageError(description: problem)
        }
        return text
    }

    /// `1500`, `200k`, `50M`, `2G` (powers of 1000) → bytes, at least 1.
    static func parseByteCount(_ text: String, _ option: String) throws -> Int64 {
        let units: [Character: Double] = ["k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12]
        var number = Substring(text)
        var scale = 1.0
        if let last = number.last, let unit = units[last] {
            scale = unit
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale >= 1, value * scale < 1e18 else {
            throw UsageError(description: "\(option) must be a size such as 500M, 2G or 200000 (bytes), got '\(text)'")
        }
        return Int64(value * scale)
    }

    private static func parseSize(_ text: String, source: String) throws -> (width: Int, height: Int) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (16...7680).contains(width), (16...4320).contains(height) else {
            throw UsageError(description: "\(source) must look like 1280x720 (16x16…7680x4320), got '\(text)'")
        }
        return (width, height)
    }

    /// `--web`, or the `web/` folder found next to the working directory or the executable.
    private static func webRoot(_ given: String?) throws -> String {
        if let given { return given }
        var candidates = [FileManager.default.currentDirectoryPath + "/web"]
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(folder.appendingPathComponent("web").path)
            folder = folder.deletingLastPathComponent()
        }
        guard let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0 + "/index.html") }) else {
            throw UsageError(description: "no web/ folder with index.html found: give --web DIR")
        }
        return found
    }
}
