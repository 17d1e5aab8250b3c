import FilterKit

/// What a source is: its picture size, rate, length and kind.
public struct SourceInfo: Sendable, Equatable {
    public let name: String
    public let width: Int
    public let height: Int
    public let codec: String
    /// Frames per second, when the source declares it.
    public let frameRate: Double?
    /// Seconds; nil for live sources.
    public let duration: Double?
    public let isLive: Bool
    /// What the input delivers before scaling (what a camera actually gave): size and pixel format.
    public let nativeWidth: Int
    public let nativeHeight: Int
    public let pixelFormat: String
    /// The sound that goes with the pictures (the input's first audio stream); nil without.
    public let audio: AudioStreamInfo?

    init(decoder: Decoder, name: String, isLive: Bool) {
        self.name = name
        width = decoder.width
        height = decoder.height
        codec = decoder.codecName
        frameRate = decoder.frameRate
        duration = isLive ? nil : decoder.duration
        self.isLive = isLive
        nativeWidth = decoder.nativeWidth
        nativeHeight = decoder.nativeHeight
        pixelFormat = decoder.pixelFormat
        audio = decoder.audio?.parameters.info
    }

    /// What a source that is still being opened (a URL, on the decode thread) is taken to be
    /// until it is: live, `width × height` (the session's size), of no known codec or rate.
    public static func opening(_ name: String, width: Int, height: Int) -> SourceInfo {
        SourceInfo(name: name, width: width, height: height, codec: "", frameRate: nil, isLive: true)
    }

    /// A source without a demuxer (a shared camera): what it announced.
    init(name: String, width: Int, height: Int, codec: String, frameRate: Double?, isLive: Bool, audio: AudioStreamInfo? = nil) {
        self.name = name
        self.width = width
        self.height = height
        self.codec = codec
        self.frameRate = frameRate
        duration = nil
        self.isLive = isLive
        nativeWidth = width
        nativeHeight = height
        pixelFormat = "yuv420p"
        self.audio = audio
    }

    /// One line for logs: `1280x720 mjpeg (yuvj422p) at 30 fps`.
    public var delivered: String {
        let rate = frameRate.map { " at \(($0 * 100).rounded() / 100) fps" } ?? ""
        return "\(nativeWidth)x\(nativeHeight) \(codec) (\(pixelFormat))\(rate)"
    }
}

/// A source of decoded frames: a file, a URL, a camera or the test pattern.
///
/// Sources are not thread-safe; the thread that opens one reads it. Frames come out in the frame
/// format (YUV 4:2:0, full-range BT.601) at `info.width × info.height`.
public protocol VideoSource: AnyObject {
    var info: SourceInfo { get }

    /// Decodes the next frame into `frame` (which must be of the source's size). Returns false
    /// at the end of a file; live sources never end but may throw when they fail.
    func read(into frame: Frame) throws(MediaError) -> Bool

    /// Decodes the next picture without converting it, for pipelines that convert on another
    /// thread (with a ``FrameConverter`` of the source's size). Same end and errors as `read`.
    func read(into picture: DecodedPicture) throws(MediaError) -> Bool

    /// Receives one line per recoverable problem, such as a corrupt packet that was skipped.
    var onWarning: (String) -> Void { get set }

    /// Breaks a read that is blocked waiting for data; the only member other threads may use.
    var interruption: Interruption { get }

    /// Passes the source's sound, as it is read with the pictures, on to `queue` (nil: to
    /// nobody). Called on the thread that reads the source.
    func routeAudio(to queue: AudioPacketQueue?)
}

extension VideoSource {
    /// A source without sound has nothing to pass on.
    public func routeAudio(to queue: AudioPacketQueue?) {}
}

/// A source with a timeline: files and seekable URLs.
public protocol SeekableVideoSource: VideoSource {
    /// Frame-accurate seek: decodes into `frame` the first frame whose time is ≥ `seconds`
    /// (the last frame when `seconds` is past the end); the next `read` continues after it.
    func seek(to seconds: Double, into frame: Frame) throws(MediaError)
    /// Throws when the input is no longer what was opened: the file was deleted, replaced,
    /// truncated or rewritten (its already-open descriptor would play stale or broken data).
    /// URLs do not change as far as this can tell.
    func verifyUnchanged() throws(MediaError)
    /// Whether the pictures played are kept for seeks back to them (a loop's wraps), within the
    /// step cache's bound; decode thread only.
    var keepsPlayedPictures: Bool { get set }
    /// Whether the playhead moves backward: the pictures kept after it go first. Decode thread only.
    var playsBackward: Bool { get set }
    /// The in of a loop set while the playhead was at or past it, whose pictures ``decodeAhead()``
    /// prepares for the first wrap (nil: none). Decode thread only.
    var preparesLoopIn: Double? { get set }
    /// Decodes one picture ahead of need, in the time before the next frame is due: playing
    /// backward, of the GOP before the playhead's (ready when the playhead crosses its keyframe);
    /// with ``preparesLoopIn``, from the loop's in to the pictures played since (ready for the
    /// first wrap). Within the step cache's bound. False when there is nothing (more) to do. A
    /// failure only stops it: the seek that needs the picture decodes it, and meets the failure,
    /// as it would have. Decode thread only.
    func decodeAhead() -> Bool
}

/// How to open a source.
public struct SourceOptions: Sendable {
    /// Decoder threads (FFmpeg's own); 1 keeps decoding on the calling thread, 0 = automatic.
    public var decoderThreads: Int = 1
    /// Scale frames to this size instead of the source's own.
    public var outputSize: (width: Int, height: Int)?
    /// Without `outputSize`: a source of more pixels gives frames reduced to this many (its shape
    /// kept), so that a file nobody vetted for size cannot make the session huge.
    public var maximumPixels: Int?
    /// V4L2 pixel format to ask a camera for (`mjpeg`, `yuyv422`, …).
    public var cameraFormat: String?
    /// Frame rate to ask a camera for (frames per second).
    public var cameraRate: Double?
    /// A live source that gives no frame for this long has failed (a network stream that went
    /// quiet, a camera that hangs).
    public var stallTimeout: Duration = .seconds(5)
    /// Opening the input (connecting, reading its header, probing its streams) gives up after this.
    public var openTimeout: Duration = .seconds(10)
    /// Breaks the source's blocking reads; shared by every reopening of the same input.
    public var interruption = Interruption()
    /// How much of the pictures its seeks decode a file keeps for the steps after them (256 MB,
    /// ~185 pictures of 720p, unless told otherwise), and the cache's figures.
    public var stepCache = StepCacheBudget()

    public init(decoderThreads: Int = 1, outputSize: (width: Int, height: Int)? = nil) {
        self.decoderThreads = decoderThreads
        self.outputSize = outputSize
    }
}

extension InputSpec {
    /// Opens the source: a ``SeekableVideoSource`` for files that can seek, a live one otherwise
    /// (see ``isSeekableFile(_:)``).
    public func open(_ options: SourceOptions = SourceOptions()) throws(MediaError) -> any VideoSource {
        switch self {
        case .file(let path):
            let decoder = try Decoder(url: path, options: Self.transferOptions(for: path), threads: options.decoderThreads,
                                      outputSize: options.outputSize, maximumPixels: options.maximumPixels,
                                      interruption: options.interruption, openTimeout: options.openTimeout,
                                      stepCache: options.stepCache)
            return Self.isSeekableFile(decoder) ? FileSource(decoder: decoder)
                : LiveSource(decoder: decoder, name: path, stallTimeout: options.stallTimeout)
        case .testPattern(let width, let height, let rate):
            let graph = "testsrc2=size=\(width)x\(height):rate=\(rate)"
            let decoder = try Decoder(url: graph, inputFormat: "lavfi", threads: options.decoderThreads,
                                      outputSize: options.outputSize, maximumPixels: options.maximumPixels,
                                      interruption: options.interruption, openTimeout: options.openTimeout)
            return LiveSource(decoder: decoder, name: description, stallTimeout: options.stallTimeout)
        case .camera(let device):
            // Our own probe first: its messages say what is wrong (FFmpeg's say "Inappropriate ioctl").
            _ = try CaptureDevice.probe(device)
            var deviceOptions: [String: String] = [:]
            if let format = options.cameraFormat { deviceOptions["input_format"] = format }
            if let rate = options.cameraRate { deviceOptions["framerate"] = String(rate) }
            if let size = options.outputSize { deviceOptions["video_size"] = "\(size.width)x\(size.height)" }
            let decoder = try Decoder(url: device, inputFormat: "v4l2", options: deviceOptions,
                                      threads: options.decoderThreads, outputSize: options.outputSize,
                                      maximumPixels: options.maximumPixels, interruption: options.interruption, openTimeout: options.openTimeout)
            return LiveSource(decoder: decoder, name: description, stallTimeout: options.stallTimeout)
        case .firstCamera:
            guard let first = CaptureDevice.list().first else {
                throw .openFailed(input: "camera", reason: "no capture devices found (no /dev/video* that can capture)")
            }
            return try InputSpec.camera(device: first.path).open(options)
        }
    }

    /// Whether an opened file or URL plays as a file (a timeline, seeks) rather than live: its
    /// input must seek — a local file, or a URL whose server answers byte ranges (FFmpeg's http
    /// sees `Accept-Ranges` or a 206; one that does not is a stream) — and a URL must also have
    /// a known length: a live HLS playlist or a growing recording on a server that answers
    /// ranges has none, and is live.
    static func isSeekableFile(_ decoder: Decoder) -> Bool {
        decoder.canSeek && (decoder.duration != nil || !decoder.input.contains("://"))
    }

    /// Options for FFmpeg's http(s) protocol: a file whose connection drops mid-way is asked
    /// for again from the byte where it broke off (a range request; up to 5 s of retries), so
    /// the drop costs no picture — and leaves no error behind that would stop playback at the
    /// end instead of looping. Streams (no length) are reconnected by ``Player`` instead.
    static func transferOptions(for url: String) -> [String: String] {
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https" else { return [:] }
        return ["reconnect": "1", "reconnect_delay_max": "5"]
    }

    /// How to open this input again after it failed, as `options` say (their `outputSize`: the
    /// size the pipeline was built for, whatever the input gives next time; none: the input's
    /// own), sharing `options.interruption`.
    public func reopener(_ options: SourceOptions) -> SourceOpener {
        let open = opener(options)
        return { () throws(MediaError) in try open(options.interruption) }
    }

    /// ``reopener(_:)`` at `width × height`.
    public func reopener(_ options: SourceOptions, width: Int, height: Int) -> SourceOpener {
        var sized = options
        sized.outputSize = (width, height)
        return reopener(sized)
    }

    /// ``opener(_:)`` at `width × height`.
    public func opener(_ options: SourceOptions, width: Int, height: Int) -> InputOpener {
        var sized = options
        sized.outputSize = (width, height)
        return opener(sized)
    }

    /// How to open this input anew as `options` say, each opening's reads broken by the
    /// ``Interruption`` it is given (an interrupted one stays interrupted: an input played again
    /// after another source needs a new one).
    public func opener(_ options: SourceOptions) -> InputOpener {
        { (interruption) throws(MediaError) in
            var options = options
            options.interruption = interruption
            return try self.open(options)
        }
    }
}

/// Opens a source; called on the decode thread to reconnect a live input.
public typealias SourceOpener = @Sendable () throws(MediaError) -> any VideoSource

/// Opens an input with the ``Interruption`` that breaks its reads.
public typealias InputOpener = @Sendable (Interruption) throws(MediaError) -> any VideoSource

extension SourceInfo {
    /// Frames a second for numbering and stepping its frames: the declared rate, 25 where it
    /// declares none.
    public var numberingRate: Double {
        frameRate.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 25
    }
}
