import CFFmpeg

/// Opening an input: the demuxer, the video stream and its decoder, and what they declare.
extension Decoder {
    /// The video stream found and its decoder, opened.
    struct VideoStream {
        let stream: UnsafeMutablePointer<AVStream>
        let index: Int32
        let context: UnsafeMutablePointer<AVCodecContext>
        let codecName: String
    }

    /// Opens `url` with the demuxer `inputFormat` (nil: probed) and reads its streams' headers,
    /// giving up after `timeout`; the log of the opening goes through ``FFmpegLog/whileOpening(_:)``.
    static func openInput(_ url: String, inputFormat: String?, options: [String: String],
                          interruption: Interruption, timeout: Duration) throws(MediaError)
        -> UnsafeMutablePointer<AVFormatContext> {
        avdevice_register_all()
        FFmpegLog.install()
        var demuxer: UnsafePointer<AVInputFormat>? = nil
        if let inputFormat {
            demuxer = av_find_input_format(inputFormat)
            guard demuxer != nil else {
                throw .openFailed(input: url, reason: "this FFmpeg build has no '\(inputFormat)' input")
            }
        }
        interruption.arm(for: timeout)
        defer { interruption.disarm() }
        return try FFmpegLog.whileOpening { () throws(MediaError) in
            try openFormat(url, demuxer: demuxer, options: options, interruption: interruption, timeout: timeout)
        }
    }

    /// Finds the best video stream of `format` and opens its decoder with `threads` threads;
    /// closes `format` when that fails. A `preview` decoder skips the pictures no other refers to
    /// (most B-frames: the next picture decoded is at most a few frames later) and the deblocking
    /// filter (its block edges vanish at a fraction of the size): a quarter less decoding of
    /// natural 720p H.264 with B-frames, measured with the ffmpeg CLI's same options.
    static func openVideoStream(of format: UnsafeMutablePointer<AVFormatContext>, url: String,
                                threads: Int, preview: Bool = false) throws(MediaError) -> VideoStream {
        var formatContext: UnsafeMutablePointer<AVFormatContext>? = format
        var codecContext: UnsafeMutablePointer<AVCodecContext>? = nil
        var codec: UnsafePointer<AVCodec>? = nil
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        guard index >= 0, let stream = format.pointee.streams[Int(index)] else {
            let noDecoder = index == CFFmpeg_AVERROR_DECODER_NOT_FOUND()
            let codecName = noDecoder ? firstVideoCodecName(format) : nil
            release(format: &formatContext, codec: &codecContext)
            if let codecName { throw .unsupportedCodec(input: url, codec: codecName) }
            throw .noVideoStream(input: url)
        }
        let parameters = stream.pointee.codecpar!
        let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let codec, let context = avcodec_alloc_context3(codec) else {
            release(format: &formatContext, codec: &codecContext)
            throw .unsupportedCodec(input: url, codec: codecName)
        }
        codecContext = context
        avcodec_parameters_to_context(context, parameters)
        context.pointee.thread_count = Int32(threads)
        context.pointee.pkt_timebase = stream.pointee.time_base
        if preview {
            context.pointee.skip_frame = AVDISCARD_NONREF
            context.pointee.skip_loop_filter = AVDISCARD_ALL
        }
        let result = avcodec_open2(context, codec, nil)
        guard result >= 0, parameters.pointee.width > 0, parameters.pointee.height > 0 else {
            release(format: &formatContext, codec: &codecContext)
            throw .openFailed(input: url, reason: result < 0 ? averrorDescription(result) : "video stream has no picture size")
        }
        return VideoStream(stream: stream, index: index, context: context, codecName: codecName)
    }

    /// The stream's frame rate as FFmpeg guesses it; nil when unknown.
    static func frameRate(of stream: UnsafeMutablePointer<AVStream>, in format: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        let rate = av_guess_frame_rate(format, stream, nil)
        return rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
    }

    /// Seconds: the stream's declared duration, else the container's; nil when neither is known.
    static func duration(of stream: UnsafeMutablePointer<AVStream>, in format: UnsafeMutablePointer<AVFormatContext>) -> Double? {
        let none = CFFmpeg_AV_NOPTS_VALUE()
        if stream.pointee.duration != none, stream.pointee.duration > 0 {
            return Double(stream.pointee.duration) * av_q2d(stream.pointee.time_base)
        }
        if format.pointee.duration != none, format.pointee.duration > 0 {
            return Double(format.pointee.duration) / Double(AV_TIME_BASE)
        }
        return nil
    }

    /// Whether the container supports seeking (files do; pipes, devices and lavfi do not).
    static func canSeek(_ format: UnsafeMutablePointer<AVFormatContext>) -> Bool {
        guard let iformat = format.pointee.iformat else { return false }
        if iformat.pointee.flags & AVFMT_NOFILE != 0 { return false }
        guard let io = format.pointee.pb else { return false }
        return io.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0
    }

    /// `avformat_open_input` and `avformat_find_stream_info` under `interruption` (armed by the
    /// caller); an interrupted or timed-out open says so instead of FFmpeg's "Immediate exit requested".
    private static func openFormat(_ url: String, demuxer: UnsafePointer<AVInputFormat>?, options: [String: String],
                                   interruption: Interruption, timeout: Duration) throws(MediaError)
        -> UnsafeMutablePointer<AVFormatContext> {
        var format: UnsafeMutablePointer<AVFormatContext>? = avformat_alloc_context()
        format?.pointee.interrupt_callback = interruption.callback
        var dictionary: OpaquePointer? = nil
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        if url.contains("://") {
            // Network reads give up after 10 s without data instead of waiting for ever.
            av_dict_set(&dictionary, "rw_timeout", "10000000", AV_DICT_DONT_OVERWRITE)
        }
        defer { av_dict_free(&dictionary) }
        func failure(_ code: Int32) -> MediaError {
            if interruption.isRequested { return .openFailed(input: url, reason: "interrupted") }
            if interruption.hasTimedOut {
                return .openFailed(input: url, reason: "no answer within \(timeout.secondsText) s (the open timeout)")
            }
            return .openFailed(input: url, reason: openFailureReason(code))
        }
        var result = avformat_open_input(&format, url, demuxer, &dictionary)
        guard result >= 0, let opened = format else { throw failure(result) }
        result = findStreamInfo(opened)
        guard result >= 0 else {
            format = opened
            avformat_close_input(&format)
            throw failure(result)
        }
        return opened
    }

    /// `avformat_find_stream_info` with one decoding thread per probed stream: probing frames on
    /// FFmpeg's own frame threads would log their errors there, outside ``FFmpegLog/whileOpening(_:)``,
    /// and a few frames are not worth threads anyway.
    private static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>) -> Int32 {
        var options = [OpaquePointer?](repeating: nil, count: Int(format.pointee.nb_streams))
        for index in options.indices { av_dict_set(&options[index], "threads", "1", 0) }
        defer { for index in options.indices { av_dict_free(&options[index]) } }
        return options.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
    }

    private static func openFailureReason(_ code: Int32) -> String {
        if code == CFFmpeg_AVERROR_INVALIDDATA() {
            return "not a video file or an unsupported format (\(averrorDescription(code)))"
        }
        if code == CFFmpeg_AVERROR(EBUSY) {
            return "the device is busy: another program is using it (\(averrorDescription(code)))"
        }
        return averrorDescription(code)
    }

    /// The codec of the first video stream, for saying which decoder is missing.
    static func firstVideoCodecName(_ format: UnsafeMutablePointer<AVFormatContext>) -> String? {
        for i in 0..<Int(format.pointee.nb_streams) {
            guard let parameters = format.pointee.streams[i]?.pointee.codecpar,
                  parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO else { continue }
            return String(cString: avcodec_get_name(parameters.pointee.codec_id))
        }
        return nil
    }

    static func release(format: inout UnsafeMutablePointer<AVFormatContext>?,
                        codec: inout UnsafeMutablePointer<AVCodecContext>?) {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
    }
}
