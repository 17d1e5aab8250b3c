import CFFmpeg

/// Decides whether a file someone uploaded is a video this server can play, before it is
/// listed: it must open as one of the usual video containers, hold a video stream whose decoder
/// exists, and yield one decoded picture.
///
/// Meant for untrusted bytes, so every step is bounded: only the `file` protocol and the
/// containers in ``containers`` (a playlist such as HLS or concat would make FFmpeg read other
/// files or URLs); probing reads at most ``probeBytes`` and analyses at most ``analyzeSeconds``;
/// pictures larger than ``maxPixels`` are refused by the decoder; at most ``maxPackets`` packets
/// are read while looking for the first picture; and the whole inspection gives up after
/// ``timeLimit``. Runs on the caller's thread and blocks it (file reads and one decode): call it
/// from a worker thread, never a network service thread. Thread-safe: inspections share nothing.
public enum UploadProbe {
    /// What an accepted upload is.
    public struct Report: Sendable, Equatable {
        /// FFmpeg's name of the container, as `ffprobe` says it (e.g. `mov,mp4,m4a,3gp,3g2,mj2`).
        public let container: String
        /// Seconds; nil when the file does not say.
        public let duration: Double?
        public let width: Int
        public let height: Int
        /// FFmpeg's name of the video codec (e.g. `h264`).
        public let codec: String

        public init(container: String, duration: Double?, width: Int, height: Int, codec: String) {
            self.container = container
            self.duration = duration
            self.width = width
            self.height = height
            self.codec = codec
        }
    }

    /// The demuxers an upload may use (FFmpeg's names; each also accepts its aliases, such as
    /// `mp4` for `mov` and `webm` for `matroska`). Playlists and raw streams are not among them.
    public static let containers = ["mov", "matroska", "avi", "flv", "mpegts", "mpeg", "ogg", "asf", "mxf"]
    /// Bytes the container probe may read (FFmpeg's `probesize`).
    public static let probeBytes = 10_000_000
    /// Seconds of streams analysed for their parameters (FFmpeg's `analyzeduration`).
    public static let analyzeSeconds = 10
    /// The largest picture accepted (8K UHD is 33 megapixels).
    public static let maxPixels = 8192 * 4608
    /// Packets (of any stream) read while looking for the first picture.
    public static let maxPackets = 2_000
    /// The whole inspection: reads still waiting after it fail.
    public static let timeLimit = Duration.seconds(20)

    /// Opens `path` and decodes its first picture. Throws a ``MediaError`` naming `path` and the
    /// problem: `openFailed` ("not a video file …") for bytes that are no accepted container,
    /// `noVideoStream`, `unsupportedCodec` ("no decoder for video codec 'X'"), `readFailed` when
    /// no picture could be decoded within the bounds.
    public static func inspect(path: String) throws(MediaError) -> Report {
        FFmpegLog.install()
        let inspection = try UploadInspection(path: path)
        return try FFmpegLog.whileOpening { () throws(MediaError) in try inspection.report() }
    }
}

/// The FFmpeg objects of one ``UploadProbe/inspect(path:)``; frees them all in `deinit`.
private final class UploadInspection {
    let path: String
    let interruption = Interruption()
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>? = av_packet_alloc()
    var picture: UnsafeMutablePointer<AVFrame>? = av_frame_alloc()

    init(path: String) throws(MediaError) {
        self.path = path
        interruption.arm(for: UploadProbe.timeLimit)
        format = avformat_alloc_context()
        guard let format, packet != nil, picture != nil else { throw .openFailed(input: path, reason: "out of memory") }
        format.pointee.interrupt_callback = interruption.callback
    }

    deinit {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
        av_packet_free(&packet)
        av_frame_free(&picture)
    }

    func report() throws(MediaError) -> UploadProbe.Report {
        let format = try open()
        let (stream, decoder) = try openVideoDecoder(format)
        let parameters = stream.pointee.codecpar!
        let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        try decodeFirstPicture(format, stream: stream, decoder: decoder)
        return UploadProbe.Report(container: String(cString: format.pointee.iformat.pointee.name),
                                  duration: duration(format, stream), width: Int(picture!.pointee.width),
                                  height: Int(picture!.pointee.height), codec: codecName)
    }

    /// `avformat_open_input` limited to files and ``UploadProbe/containers``, then the bounded stream analysis.
    private func open() throws(MediaError) -> UnsafeMutablePointer<AVFormatContext> {
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "protocol_whitelist", "file", 0)
        av_dict_set(&options, "format_whitelist", UploadProbe.containers.joined(separator: ","), 0)
        av_dict_set(&options, "probesize", String(UploadProbe.probeBytes), 0)
        av_dict_set(&options, "analyzeduration", String(UploadProbe.analyzeSeconds * 1_000_000), 0)
        let opened = avformat_open_input(&format, path, nil, &options)
        guard opened >= 0, let format else { throw failure(opened, opening: true) }
        var streamOptions = [OpaquePointer?](repeating: nil, count: Int(format.pointee.nb_streams))
        for index in streamOptions.indices { setDecoderLimits(&streamOptions[index]) }
        defer { for index in streamOptions.indices { av_dict_free(&streamOptions[index]) } }
        let analysed = streamOptions.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
        guard analysed >= 0 else { throw failure(analysed, opening: true) }
        return format
    }

    private func openVideoDecoder(_ format: UnsafeMutablePointer<AVFormatContext>) throws(MediaError)
        -> (UnsafeMutablePointer<AVStream>, UnsafeMutablePointer<AVCodecContext>) {
        var decoder: UnsafePointer<AVCodec>? = nil
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &decoder, 0)
        if index == CFFmpeg_AVERROR_DECODER_NOT_FOUND() {
            throw .unsupportedCodec(input: path, codec: Decoder.firstVideoCodecName(format) ?? "unknown")
        }
        guard index >= 0, let stream = format.pointee.streams[Int(index)], let decoder else {
            throw .noVideoStream(input: path)
        }
        codec = avcodec_alloc_context3(decoder)
        guard let codec else { throw .openFailed(input: path, reason: "out of memory") }
        avcodec_parameters_to_context(codec, stream.pointee.codecpar)
        codec.pointee.pkt_timebase = stream.pointee.time_base
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        setDecoderLimits(&options)
        let opened = avcodec_open2(codec, decoder, &options)
        guard opened >= 0 else { throw .openFailed(input: path, reason: "cannot open the video decoder: \(averrorDescription(opened))") }
        return (stream, codec)
    }

    /// Reads packets until the decoder yields a picture, at most ``UploadProbe/maxPackets`` of
    /// them, then drains the decoder; throws when no picture came.
    private func decodeFirstPicture(_ format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>,
                                    decoder: UnsafeMutablePointer<AVCodecContext>) throws(MediaError) {
        var lastProblem = "the file ended"
        for _ in 0..<UploadProbe.maxPackets {
            let read = av_read_frame(format, packet)
            if read == CFFmpeg_AVERROR_EOF() { break }
            if read < 0 {
                if interruption.hasTimedOut { throw failure(read, opening: false) }
                lastProblem = averrorDescription(read)
                if read != CFFmpeg_AVERROR_INVALIDDATA() { break }
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet!.pointee.stream_index == stream.pointee.index else { continue }
            let sent = avcodec_send_packet(decoder, packet)
            if sent < 0 { lastProblem = averrorDescription(sent) }
            if avcodec_receive_frame(decoder, picture) == 0 { return }
        }
        avcodec_send_packet(decoder, nil)
        if avcodec_receive_frame(decoder, picture) == 0 { return }
        throw .readFailed(input: path, reason: "no picture could be decoded within \(UploadProbe.maxPackets) packets (\(lastProblem))")
    }

    /// One decoding thread (probing on FFmpeg's frame threads would log outside
    /// ``FFmpegLog/whileOpening(_:)``) and the picture-size bound.
    private func setDecoderLimits(_ options: inout OpaquePointer?) {
        av_dict_set(&options, "threads", "1", 0)
        av_dict_set(&options, "max_pixels", String(UploadProbe.maxPixels), 0)
    }

    private func failure(_ code: Int32, opening: Bool) -> MediaError {
        if interruption.hasTimedOut {
            return .readFailed(input: path, reason: "not inspected within \(UploadProbe.timeLimit.components.seconds) s")
        }
        guard opening else { return .readFailed(input: path, reason: averrorDescription(code)) }
        if code == CFFmpeg_AVERROR_INVALIDDATA() || code == CFFmpeg_AVERROR(EINVAL) {
            return .openFailed(input: path, reason: "not a video file, or not in a container this server accepts "
                + "(\(UploadProbe.containers.joined(separator: ", ")))")
        }
        return .openFailed(input: path, reason: averrorDescription(code))
    }

    private func duration(_ format: UnsafeMutablePointer<AVFormatContext>, _ stream: UnsafeMutablePointer<AVStream>) -> Double? {
        let unknown = CFFmpeg_AV_NOPTS_VALUE()
        let seconds: Double
        if stream.pointee.duration != unknown, stream.pointee.duration > 0 {
            seconds = Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        } else if format.pointee.duration != unknown, format.pointee.duration > 0 {
            seconds = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            return nil
        }
        return seconds.isFinite && seconds > 0 ? seconds : nil
    }
}
