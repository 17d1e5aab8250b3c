import CFFmpeg
import FilterKit

/// Encodes ``Frame``s to H.264 (libx264, else libopenh264, else MPEG-4 part 2) and writes them
/// to a fragmented MP4 that is playable up to its last complete fragment at every moment.
///
/// The file starts with an empty `moov`; every second at most (a keyframe at least every second,
/// `frag_duration` 1 s) a `moof`+`mdat` fragment goes to disk, flushed packet by packet, so a
/// process killed mid-recording loses at most the fragment being gathered (≤ 1 s).
///
/// Not thread-safe: one thread writes and finishes it (the recorder's encoder thread). Owns
/// every FFmpeg object it creates.
final class MP4Writer {
    /// Encoders tried in this order; the first that opens is used.
    static let encoderPreference = ["libx264", "libopenh264", "mpeg4"]
    /// Timestamps are milliseconds from the first frame (MPEG-4 part 2 allows time bases up to 1/65535).
    private static let timeBase = AVRational(num: 1, den: 1000)

    let path: String
    /// The encoder in use, such as `libx264`.
    private(set) var encoderName = ""
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let frameMilliseconds: Int64
    /// The first frame's time: the file starts at 0 with it.
    private var origin: Int64?
    private var lastTimestamp: Int64 = -1
    private var lastKeyframe: Int64?
    private var finished = false

    /// Creates `path` (truncating nothing: the caller picks a new name) and writes the MP4 header.
    /// `preset` is libx264's (`ultrafast` … `veryslow`); `threads` the encoder's threads.
    init(path: String, width: Int, height: Int, frameRate: Double, preset: String = "veryfast",
         threads: Int = 1, encoders: [String] = encoderPreference) throws(MediaError) {
        self.path = path
        let rate = frameRate.isFinite && frameRate > 0 ? min(frameRate, 240) : 30
        frameMilliseconds = Int64((1000 / rate).rounded())
        var output: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&output, nil, "mp4", path) >= 0, let output,
              let newStream = avformat_new_stream(output, nil) else {
            if let output { avformat_free_context(output) }
            throw .recordFailed(path: path, reason: "this FFmpeg build cannot write MP4")
        }
        format = output
        stream = newStream
        picture = av_frame_alloc()
        packet = av_packet_alloc()
        let globalHeader = output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
        var failures: [String] = []
        for name in encoders where codec == nil {
            do throws(MediaError) {
                codec = try Self.openEncoder(name, width: width, height: height, frameRate: rate, preset: preset,
                                             threads: threads, globalHeader: globalHeader)
                encoderName = name
            } catch {
                failures.append(error.description)
            }
        }
        guard let context = codec else {
            release()
            throw .recordFailed(path: path, reason: "no video encoder opened (\(failures.joined(separator: "; ")))")
        }
        newStream.pointee.time_base = Self.timeBase
        newStream.pointee.avg_frame_rate = context.pointee.framerate
        var result = avcodec_parameters_from_context(newStream.pointee.codecpar, context)
        if result >= 0 { result = avio_open(&output.pointee.pb, path, AVIO_FLAG_WRITE) }
        if result >= 0 {
            var options: OpaquePointer?
            av_dict_set(&options, "movflags", "frag_keyframe+empty_moov+default_base_moof", 0)
            av_dict_set(&options, "frag_duration", "1000000", 0)
            // Every fragment reaches the file (the kernel) as soon as it is complete.
            av_dict_set(&options, "flush_packets", "1", 0)
            result = avformat_write_header(output, &options)
            av_dict_free(&options)
        }
        guard result >= 0 else {
            release()
            throw .recordFailed(path: path, reason: averrorDescription(result))
        }
    }

    deinit { release() }

    /// Bytes in the file so far (complete fragments; the one being gathered is in memory).
    var bytesWritten: Int64 {
        guard let pb = format?.pointee.pb else { return 0 }
        return max(0, avio_tell(pb))
    }

    /// Encodes `frame`, shown at `milliseconds` (any origin: the first frame's time becomes 0;
    /// kept strictly increasing).
    func write(_ frame: Frame, at milliseconds: Int64) throws(MediaError) {
        guard let picture, let codec, !finished else { return }
        let origin = origin ?? milliseconds
        self.origin = origin
        let timestamp = max(milliseconds &- origin, lastTimestamp &+ 1)
        lastTimestamp = timestamp
        picture.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        picture.pointee.width = Int32(frame.width)
        picture.pointee.height = Int32(frame.height)
        picture.pointee.color_range = AVCOL_RANGE_JPEG
        picture.pointee.colorspace = AVCOL_SPC_SMPTE170M
        picture.pointee.data.0 = frame.y.base
        picture.pointee.data.1 = frame.u.base
        picture.pointee.data.2 = frame.v.base
        picture.pointee.linesize.0 = Int32(frame.y.stride)
        picture.pointee.linesize.1 = Int32(frame.u.stride)
        picture.pointee.linesize.2 = Int32(frame.v.stride)
        picture.pointee.pts = timestamp
        // A keyframe at least every second of wall time, also when frames were dropped, so every
        // fragment can start with one and seeking stays quick.
        let keyframeDue = lastKeyframe.map { timestamp - $0 >= 1000 - frameMilliseconds / 2 } ?? true
        picture.pointee.pict_type = keyframeDue ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        if keyframeDue { lastKeyframe = timestamp }
        // The encoder copies the planes (the frame is not reference-counted), so `frame` is free
        // again when this returns.
        let sent = avcodec_send_frame(codec, picture)
        guard sent >= 0 else { throw .recordFailed(path: path, reason: "encoding: \(averrorDescription(sent))") }
        try drain()
    }

    /// Flushes the encoder, writes the last fragment and the index, and closes the file.
    func finish() throws(MediaError) {
        guard !finished, let codec, let format else { return }
        finished = true
        avcodec_send_frame(codec, nil)
        try drain()
        let result = av_write_trailer(format)
        avio_closep(&format.pointee.pb)
        guard result >= 0 else { throw .recordFailed(path: path, reason: "finishing: \(averrorDescription(result))") }
    }

    private func drain() throws(MediaError) {
        guard let codec, let format, let packet else { return }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            if received == CFFmpeg_AVERROR(EAGAIN) || received == CFFmpeg_AVERROR_EOF() { return }
            guard received >= 0 else { throw .recordFailed(path: path, reason: "encoding: \(averrorDescription(received))") }
            packet.pointee.stream_index = stream.pointee.index
            packet.pointee.duration = frameMilliseconds
            av_packet_rescale_ts(packet, Self.timeBase, stream.pointee.time_base)
            let written = av_write_frame(format, packet)
            av_packet_unref(packet)
            guard written >= 0 else { throw .recordFailed(path: path, reason: "writing: \(averrorDescription(written))") }
        }
    }

    private func release() {
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
        }
        format = nil
        avcodec_free_context(&codec)
        av_frame_free(&picture)
        av_packet_free(&packet)
    }

    private static func openEncoder(_ name: String, width: Int, height: Int, frameRate: Double, preset: String,
                                    threads: Int, globalHeader: Bool = false) throws(MediaError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let encoder = avcodec_find_encoder_by_name(name) else {
            throw .encodeFailed(reason: "\(name): not in this FFmpeg build")
        }
        guard let context = avcodec_alloc_context3(encoder) else { throw .encodeFailed(reason: "\(name): out of memory") }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.time_base = timeBase
        context.pointee.framerate = av_d2q(frameRate, 1000)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        // Our frames are full-range BT.601 (JFIF); say so rather than convert.
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.colorspace = AVCOL_SPC_SMPTE170M
        context.pointee.gop_size = Int32(max(1, frameRate.rounded(.down)))
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = Int32(max(1, threads))
        if globalHeader { context.pointee.flags |= CFFmpeg_AV_CODEC_FLAG_GLOBAL_HEADER() }
        var options: OpaquePointer?
        switch name {
        case "libx264":
            av_dict_set(&options, "preset", preset, 0)
            // No lookahead or frame delay: a frame is in the file's next fragment, not seconds later.
            av_dict_set(&options, "tune", "zerolatency", 0)
            av_dict_set(&options, "forced-idr", "1", 0)
        case "mpeg4":
            // About 0.15 bit per pixel: near x264's default quality for the test pattern.
            context.pointee.bit_rate = Int64(Double(width * height) * frameRate * 0.15)
        default:
            break
        }
        let result = avcodec_open2(context, encoder, &options)
        av_dict_free(&options)
        guard result >= 0 else {
            var failed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&failed)
            throw .encodeFailed(reason: "\(name): \(averrorDescription(result))")
        }
        return context
    }
}
