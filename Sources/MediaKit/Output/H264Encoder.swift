import CFFmpeg
import FilterKit

/// Encodes ``Frame``s to H.264 with libavcodec (libx264, else a fallback such as libopenh264 or
/// MPEG-4 part 2), sized for a live stream: no B-frames, no lookahead, a keyframe at least every
/// `keyframeInterval` (a second by default) of wall time, and on demand. Timestamps are
/// milliseconds.
///
/// Not thread-safe: one thread encodes and flushes it. Owns every FFmpeg object it creates.
final class H264Encoder {
    /// Encoders tried in this order for a recording; the first that opens is used.
    static let recordingPreference = ["libx264", "libopenh264", "mpeg4"]
    /// Encoders tried for a browser's decoder, which takes H.264 only.
    static let browserPreference = ["libx264", "libopenh264"]
    /// Timestamps are milliseconds (MPEG-4 part 2 allows time bases up to 1/65535).
    static let timeBase = AVRational(num: 1, den: 1000)

    /// The CRF of a capped stream's pictures: within 0.01 of a quality-80 JPEG's SSIM on
    /// camera-like footage at a sixth of its bits (x264's default, 23, was 0.01 below).
    static let streamQuality = 20.0

    /// The encoder in use, such as `libx264`.
    let name: String
    let context: UnsafeMutablePointer<AVCodecContext>
    /// One frame's duration in milliseconds.
    let frameMilliseconds: Int64
    /// The longest wait between keyframes, in milliseconds.
    let keyframeInterval: Int64
    private var picture: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var lastKeyframe: Int64?

    /// Opens the first of `encoders` that opens. `globalHeader`: the muxer wants SPS/PPS in the
    /// stream header (mp4, flv) rather than in the stream. `preset` and `profile` (nil: x264's
    /// choice) are libx264's; `cap` bounds the bits (nil: quality alone decides).
    init(width: Int, height: Int, frameRate: Double, preset: String, profile: String? = nil, threads: Int,
         globalHeader: Bool, encoders: [String], cap: BitRateCap? = nil,
         keyframeInterval: Duration = .seconds(1)) throws(MediaError) {
        let rate = frameRate.isFinite && frameRate > 0 ? min(frameRate, 240) : 30
        frameMilliseconds = Int64((1000 / rate).rounded())
        self.keyframeInterval = max(1, Int64((keyframeInterval.seconds * 1000).rounded()))
        var failures: [String] = []
        var opened: (String, UnsafeMutablePointer<AVCodecContext>)?
        for name in encoders where opened == nil {
            do throws(MediaError) {
                opened = (name, try Self.open(name, width: width, height: height, frameRate: rate, preset: preset,
                                              profile: profile, threads: threads, globalHeader: globalHeader, cap: cap,
                                              keyframeInterval: self.keyframeInterval))
            } catch {
                failures.append(error.description)
            }
        }
        guard let (name, context) = opened else {
            throw .encodeFailed(reason: "no video encoder opened (\(failures.joined(separator: "; ")))")
        }
        self.name = name
        self.context = context
        picture = av_frame_alloc()
        packet = av_packet_alloc()
    }

    deinit {
        var context: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&context)
        av_frame_free(&picture)
        av_packet_free(&packet)
    }

    /// Encodes `frame` shown at `timestamp` (milliseconds, strictly increasing) and hands every
    /// packet ready to `output` (timestamps in ``timeBase``, the packet unreferenced after).
    /// `keyframe`: make this picture a keyframe whenever the last one was.
    func encode(_ frame: Frame, at timestamp: Int64, keyframe: Bool = false,
                output: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        guard let picture else { return }
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
        // A keyframe at least every interval of wall time, also when frames were dropped, so that
        // every fragment can start with one and a viewer joining a stream waits at most that long.
        let keyframeDue = keyframe || lastKeyframe.map { timestamp - $0 >= keyframeInterval - frameMilliseconds / 2 } ?? true
        picture.pointee.pict_type = keyframeDue ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        if keyframeDue { lastKeyframe = timestamp }
        // The encoder copies the planes (the frame is not reference-counted), so `frame` is free
        // again when this returns.
        let sent = avcodec_send_frame(context, picture)
        guard sent >= 0 else { throw .encodeFailed(reason: "\(name): \(averrorDescription(sent))") }
        try drain(output)
    }

    /// libx264 under a ``BitRateCap``: the constant quality (CRF) from the next picture on, where
    /// the cap allows; lower is finer. Other encoders ignore it.
    func setConstantQuality(_ crf: Double) {
        guard name == "libx264", let options = context.pointee.priv_data else { return }
        // libavcodec's x264 wrapper reconfigures x264 before a picture when its crf option changed.
        av_opt_set_double(options, "crf", crf, 0)
    }

    /// Flushes the frames the encoder still holds to `output`.
    func flush(output: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        avcodec_send_frame(context, nil)
        try drain(output)
    }

    private func drain(_ output: (UnsafeMutablePointer<AVPacket>) throws(MediaError) -> Void) throws(MediaError) {
        guard let packet else { return }
        while true {
            let received = avcodec_receive_packet(context, packet)
            if received == CFFmpeg_AVERROR(EAGAIN) || received == CFFmpeg_AVERROR_EOF() { return }
            guard received >= 0 else { throw .encodeFailed(reason: "\(name): \(averrorDescription(received))") }
            packet.pointee.duration = frameMilliseconds
            defer { av_packet_unref(packet) }
            try output(packet)
        }
    }

    private static func open(_ name: String, width: Int, height: Int, frameRate: Double, preset: String,
                             profile: String?, threads: Int, globalHeader: Bool, cap: BitRateCap?,
                             keyframeInterval: Int64) throws(MediaError) -> UnsafeMutablePointer<AVCodecContext> {
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
        context.pointee.gop_size = Int32(max(1, (frameRate * Double(keyframeInterval) / 1000).rounded(.down)))
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = Int32(max(1, threads))
        if globalHeader { context.pointee.flags |= CFFmpeg_AV_CODEC_FLAG_GLOBAL_HEADER() }
        var options: OpaquePointer?
        switch name {
        case "libx264":
            av_dict_set(&options, "preset", preset, 0)
            // No lookahead or frame delay: a frame leaves the encoder with the next packet, not seconds later.
            av_dict_set(&options, "tune", "zerolatency", 0)
            av_dict_set(&options, "forced-idr", "1", 0)
            if let profile { av_dict_set(&options, "profile", profile, 0) }
            if let cap {
                av_dict_set(&options, "crf", "\(Self.streamQuality)", 0)
                context.pointee.rc_max_rate = Int64(cap.bitsPerSecond)
                context.pointee.rc_buffer_size = Int32(clamping: cap.bufferBits)
            }
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
