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
}

/// A source with a timeline: files and seekable URLs.
public protocol SeekableVideoSource: VideoSource {
    /// Frame-accurate seek: decodes into `frame` the first frame whose time is ≥ `seconds`
    /// (the last frame when `seconds` is past the end); the next `read` continues after it.
    func seek(to seconds: Double, into frame: Frame) throws(MediaError)
}

/// How to open a source.
public struct SourceOptions: Sendable {
    /// Decoder threads (FFmpeg's own); 1 keeps decoding on the calling thread, 0 = automatic.
    public var decoderThreads: Int = 1
    /// Scale frames to this size instead of the source's own.
    public var outputSize: (width: Int, height: Int)?
    /// V4L2 pixel format to ask a camera for (`mjpeg`, `yuyv422`, …).
    public var cameraFormat: String?
    /// Frame rate to ask a camera for.
    public var cameraRate: Int?

    public init(decoderThreads: Int = 1, outputSize: (width: Int, height: Int)? = nil) {
        self.decoderThreads = decoderThreads
        self.outputSize = outputSize
    }
}

extension InputSpec {
    /// Opens the source: a ``SeekableVideoSource`` for files that can seek, a live one otherwise.
    public func open(_ options: SourceOptions = SourceOptions()) throws(MediaError) -> any VideoSource {
        switch self {
        case .file(let path):
            let decoder = try Decoder(url: path, threads: options.decoderThreads, outputSize: options.outputSize)
            return decoder.canSeek ? FileSource(decoder: decoder) : LiveSource(decoder: decoder, name: path)
        case .testPattern(let width, let height, let rate):
            let graph = "testsrc2=size=\(width)x\(height):rate=\(rate)"
            let decoder = try Decoder(url: graph, inputFormat: "lavfi", threads: options.decoderThreads,
                                      outputSize: options.outputSize)
            return LiveSource(decoder: decoder, name: description)
        case .camera(let device):
            var deviceOptions: [String: String] = [:]
            if let format = options.cameraFormat { deviceOptions["input_format"] = format }
            if let rate = options.cameraRate { deviceOptions["framerate"] = String(rate) }
            if let size = options.outputSize { deviceOptions["video_size"] = "\(size.width)x\(size.height)" }
            let decoder = try Decoder(url: device, inputFormat: "v4l2", options: deviceOptions,
                                      threads: options.decoderThreads, outputSize: options.outputSize)
            return LiveSource(decoder: decoder, name: description)
        }
    }
}
