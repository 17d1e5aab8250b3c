import CFFmpeg
import FilterKit

/// Demuxes and decodes the video stream of one libavformat input into ``Frame``s.
///
/// Owns every FFmpeg object it creates and frees them in `deinit`. Not thread-safe: one thread
/// opens, reads and seeks it. The decoder's own `AVFrame` is never written to; pixels are copied
/// out (and converted to the frame format) by ``FrameConverter``.
final class Decoder {
    let input: String
    /// The input's audio stream, passed on unread to whoever listens; nil without one.
    let audio: AudioDemux?
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    /// Video packets read past the last picture while reading its sound ahead (files only).
    private let lookahead = PacketLookahead(capacity: Decoder.lookaheadPackets)
    private let decoded: UnsafeMutablePointer<AVFrame>
    private let stream: UnsafeMutablePointer<AVStream>
    private let streamIndex: Int32
    private let converter: FrameConverter
    /// Stream time base in seconds per tick, and the stream's first timestamp.
    private let timeBase: Double
    private let startTimestamp: Int64
    private var draining = false
    /// Packets the decoder refused as corrupt since the last frame.
    private var corruptPackets = 0
    /// Whether a long run of corrupt packets ends the input. Not for files that can seek: they
    /// end by themselves, so a damaged stretch is skipped however long it is.
    private var limitsCorruption = true
    /// Breaks blocking reads (see ``Interruption``); must outlive the format context.
    let interruption: Interruption
    /// Called with a one-line message for recoverable problems (corrupt packets, concealed
    /// errors), at most once a second: a damaged stream must not flood the log.
    var onWarning: (String) -> Void = { _ in }
    private var lastWarning: ContinuousClock.Instant?
    private var suppressedWarnings = 0

    let width: Int
    let height: Int
    /// What the input itself delivers, before any scaling to `width × height`.
    let nativeWidth: Int
    let nativeHeight: Int
    let pixelFormat: String
    let codecName: String
    let frameRate: Double?
    /// Seconds; nil for live or unknown-length inputs.
    let duration: Double?

    /// Opens `url` (with `inputFormat` such as "lavfi" or "v4l2" when not probed), finds the
    /// best video stream and opens its decoder with `threads` threads (0 = automatic). Opening —
    /// connecting, reading the header, probing the streams — gives up after `openTimeout` (an
    /// input that accepts a connection and then says nothing, a UDP port nobody sends to).
    init(url: String, inputFormat: String? = nil, options: [String: String] = [:],
         threads: Int = 1, outputSize: (width: Int, height: Int)? = nil,
         interruption: Interruption = Interruption(), openTimeout: Duration = .seconds(10)) throws(MediaError) {
        input = url
        self.interruption = interruption
        interruption.reset()  // a reopened source shares it with the read that failed
        avdevice_register_all()
        FFmpegLog.install()

        var demuxer: UnsafePointer<AVInputFormat>? = nil
        if let inputFormat {
            demuxer = av_find_input_format(inputFormat)
            guard demuxer != nil else {
                throw .openFailed(input: url, reason: "this FFmpeg build has no '\(inputFormat)' input")
            }
        }
        interruption.arm(for: openTimeout)
        defer { interruption.disarm() }
        let format = try FFmpegLog.whileOpening { () throws(MediaError) in
            try Decoder.openInput(url, demuxer: demuxer, options: options, interruption: interruption, timeout: openTimeout)
        }
        formatContext = format
        var codec: UnsafePointer<AVCodec>? = nil
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, &codec, 0)
        guard index >= 0, let videoStream = format.pointee.streams[Int(index)] else {
            let noDecoder = index == CFFmpeg_AVERROR_DECODER_NOT_FOUND()
            let codecName = noDecoder ? Decoder.firstVideoCodecName(format) : nil
            Decoder.release(format: &formatContext, codec: &codecContext)
            if let codecName { throw .unsupportedCodec(input: url, codec: codecName) }
            throw .noVideoStream(input: url)
        }
        stream = videoStream
        streamIndex = index
        let parameters = videoStream.pointee.codecpar!
        codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let codec, let context = avcodec_alloc_context3(codec) else {
            Decoder.release(format: &formatContext, codec: &codecContext)
            throw .unsupportedCodec(input: url, codec: codecName)
        }
        codecContext = context
        avcodec_parameters_to_context(context, parameters)
        context.pointee.thread_count = Int32(threads)
        context.pointee.pkt_timebase = videoStream.pointee.time_base
        let result = avcodec_open2(context, codec, nil)
        guard result >= 0, parameters.pointee.width > 0, parameters.pointee.height > 0 else {
            Decoder.release(format: &formatContext, codec: &codecContext)
            throw .openFailed(input: url, reason: result < 0 ? averrorDescription(result) : "video stream has no picture size")
        }

        let base = videoStream.pointee.time_base
        timeBase = av_q2d(base)
        startTimestamp = videoStream.pointee.start_time == CFFmpeg_AV_NOPTS_VALUE() ? 0 : videoStream.pointee.start_time
        audio = AudioDemux(format: format, videoIndex: index, offset: Double(startTimestamp) * timeBase)
        nativeWidth = Int(parameters.pointee.width)
        nativeHeight = Int(parameters.pointee.height)
        width = outputSize?.width ?? nativeWidth
        height = outputSize?.height ?? nativeHeight
        pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) } ?? "unknown"
        let rate = av_guess_frame_rate(format, videoStream, nil)
        frameRate = rate.num > 0 && rate.den > 0 ? av_q2d(rate) : nil
        if videoStream.pointee.duration != CFFmpeg_AV_NOPTS_VALUE(), videoStream.pointee.duration > 0 {
            duration = Double(videoStream.pointee.duration) * timeBase
        } else if format.pointee.duration != CFFmpeg_AV_NOPTS_VALUE(), format.pointee.duration > 0 {
            duration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            duration = nil
        }
        converter = FrameConverter(width: width, height: height)
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
        limitsCorruption = !canSeek
    }

    deinit {
        Decoder.release(format: &formatContext, codec: &codecContext)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        var decoded: UnsafeMutablePointer<AVFrame>? = decoded
        av_frame_free(&decoded)
    }

    /// Whether the container supports seeking (files do; pipes, devices and lavfi do not).
    var canSeek: Bool {
        guard let format = formatContext, let iformat = format.pointee.iformat else { return false }
        if iformat.pointee.flags & AVFMT_NOFILE != 0 { return false }
        guard let io = format.pointee.pb else { return false }
        return io.pointee.seekable & AVIO_SEEKABLE_NORMAL != 0
    }

    /// Frames delivered since the open or the last seek (the next frame's `sequence`).
    private var sequence = 0

    /// The timestamp of the frame in `decoded` (stream ticks): FFmpeg's guess when the frame
    /// has a presentation time, else counted; nil when neither is known.
    private var decodedTimestamp: Int64?
    /// The timestamp the next frame without a presentation time gets: the first keyframe
    /// packet's after the open or a seek (the decoder's first picture), then one frame later
    /// per frame. Such frames (AVI, raw streams) carry only their packet's decode time, which
    /// FFmpeg's guess would use: late by the B-frame delay, and none at all for the frames
    /// drained at the end. Before a keyframe's time is known: the stream's start after the
    /// open, unknown after a seek.
    private var countedTimestamp: Int64?
    /// Whether `countedTimestamp` waits for the first keyframe packet after the open or a seek.
    private var countingFromNextKeyframe = true
    /// Whether a seek came since the open: until a keyframe says where it landed, the count
    /// cannot start from the stream's start.
    private var hasSought = false

    /// How far the sound of a file is demuxed ahead of the picture decoded last (s): a packet must
    /// reach the page, be decoded and pass the browser's output latency (~40 ms) before its
    /// picture is drawn, and an Opus packet is complete only ~50 ms after its start is demuxed.
    static let soundLead = 0.15
    /// At most this many video packets are held while reading ahead (2 s at 30 fps): a file
    /// whose sound is interleaved more coarsely gets less lead, never unbounded memory.
    static let lookaheadPackets = 64

    /// Decodes the next frame into `frame`; false at the end.
    func decodeNext(into frame: Frame) throws(MediaError) -> Bool {
        guard try receiveFrame() else { return false }
        readSoundAhead(of: decodedSeconds)
        frame.time = decodedSeconds
        frame.sequence = nextSequence()
        converter.convert(decoded, into: frame)
        av_frame_unref(decoded)
        return true
    }

    /// Decodes the next picture into `picture` (releasing what it held) without converting it;
    /// false at the end.
    func decodeNext(into picture: DecodedPicture) throws(MediaError) -> Bool {
        guard try receiveFrame() else { return false }
        readSoundAhead(of: decodedSeconds)
        picture.release()
        picture.time = decodedSeconds
        av_frame_move_ref(picture.avFrame, decoded)
        picture.sequence = nextSequence()
        return true
    }

    private func nextSequence() -> Int {
        defer { sequence += 1 }
        return sequence
    }

    /// Seeks so that the next frame decoded is the first with time ≥ `seconds`, decoding (and
    /// discarding) frames from the keyframe before it. Past the end, leaves the last frame in
    /// `frame`. Returns that frame's time.
    func seek(to seconds: Double, into frame: Frame) throws(MediaError) -> Double {
        guard canSeek else { throw .notSeekable(input: input) }
        // Clamped so that any position, however far past an unknown end, converts without trapping.
        let ticks = min((max(0, seconds) / timeBase - 1e-6).rounded(.up), Double(Int64.max / 4))
        let target = startTimestamp &+ Int64(ticks)
        audio?.seeking(to: max(0, seconds))
        lookahead.clear()
        // Some files' indexes land after the target: back off further until they do not.
        for backoff in [0.0, 1, 5, 30, .infinity] {
            let seekTarget = backoff.isInfinite ? startTimestamp : target &- Int64(backoff / timeBase)
            let result = av_seek_frame(formatContext, streamIndex, seekTarget, AVSEEK_FLAG_BACKWARD)
            guard result >= 0 else {
                if backoff.isInfinite { throw .seekFailed(input: input, seconds: seconds, reason: averrorDescription(result)) }
                continue
            }
            avcodec_flush_buffers(codecContext)
            draining = false
            countingFromNextKeyframe = true
            countedTimestamp = nil
            hasSought = true
            var haveFrame = false
            while try receiveFrame() {
                let timestamp = decodedTimestamp
                if !haveFrame, let timestamp, timestamp > target, !backoff.isInfinite {
                    break  // landed after the target: back off
                }
                haveFrame = true
                if timestamp.map({ $0 >= target }) ?? true {
                    readSoundAhead(of: decodedSeconds)
                    return take(into: frame)
                }
                // Keep the latest frame before the target in case the stream ends first.
                _ = take(into: frame)
            }
            av_frame_unref(decoded)
            if haveFrame { return frame.time }  // target past the end: the last frame
        }
        throw .seekFailed(input: input, seconds: seconds, reason: "no frame found")
    }

    private func take(into frame: Frame) -> Double {
        frame.time = decodedSeconds
        let position = (frame.time * (frameRate ?? 30)).rounded()
        sequence = position.isFinite ? Int(min(max(position, 0), 1e15)) : 0
        frame.sequence = nextSequence()
        converter.convert(decoded, into: frame)
        av_frame_unref(decoded)
        return frame.time
    }

    /// Seconds from the start of the frame in `decoded`; 0 when its time is unknown.
    private var decodedSeconds: Double {
        guard let decodedTimestamp else { return 0 }
        return Double(decodedTimestamp &- startTimestamp) * timeBase
    }

    /// Sets `decodedTimestamp` for the frame just received, and what the next one counts from.
    private func timestampDecoded() {
        let noTimestamp = CFFmpeg_AV_NOPTS_VALUE()
        let guessed = decoded.pointee.best_effort_timestamp
        let counted = countedTimestamp ?? (hasSought ? nil : startTimestamp)
        decodedTimestamp = decoded.pointee.pts != noTimestamp && guessed != noTimestamp ? guessed : counted
        let rate = frameRate ?? 30
        let ticksPerFrame = Int64(max(1, (1 / (rate * timeBase)).rounded()))
        countedTimestamp = decodedTimestamp.map { $0 &+ ticksPerFrame }
    }

    /// Starts the count for frames without a presentation time at the first keyframe packet
    /// after the open or a seek: a file without an index may seek to any frame, and the
    /// decoder shows nothing before a keyframe.
    private func startCounting(at packet: UnsafeMutablePointer<AVPacket>) {
        guard countingFromNextKeyframe, packet.pointee.flags & AV_PKT_FLAG_KEY != 0 else { return }
        countingFromNextKeyframe = false
        let noTimestamp = CFFmpeg_AV_NOPTS_VALUE()
        let time = packet.pointee.dts != noTimestamp ? packet.pointee.dts : packet.pointee.pts
        if time != noTimestamp { countedTimestamp = time }
    }

    /// Runs the send/receive loop until the decoder yields a frame (true) or the stream ends.
    /// Corrupt packets are skipped with a warning; after 500 in a row a live input is given up.
    private func receiveFrame() throws(MediaError) -> Bool {
        while true {
            let received = avcodec_receive_frame(codecContext, decoded)
            if received == 0 {
                corruptPackets = 0
                timestampDecoded()
                if decoded.pointee.decode_error_flags != 0 || decoded.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
                    warn("frame at \(milliseconds(decodedSeconds)) s has decoding errors (concealed)")
                }
                return true
            }
            if received == CFFmpeg_AVERROR_EOF() { return false }
            if received != CFFmpeg_AVERROR(EAGAIN) {
                try skipCorrupt(received, at: "decoded frame")
                continue
            }
            if draining { return false }
            let read = nextPacket()
            if read == CFFmpeg_AVERROR_EOF() {
                draining = true
                audio?.ended()
                avcodec_send_packet(codecContext, nil)
                continue
            }
            if read < 0 {
                if read == CFFmpeg_AVERROR_INVALIDDATA() {
                    try skipCorrupt(read, at: "packet")
                    continue
                }
                throw .readFailed(input: input, reason: averrorDescription(read))
            }
            defer { av_packet_unref(packet) }
            if audio?.take(packet) == true { continue }
            guard packet.pointee.stream_index == streamIndex else { continue }
            startCounting(at: packet)
            let sent = avcodec_send_packet(codecContext, packet)
            if sent < 0 && sent != CFFmpeg_AVERROR(EAGAIN) {
                let time = Double(packet.pointee.pts &- startTimestamp) * timeBase
                try skipCorrupt(sent, at: "packet at \(milliseconds(time)) s")
            }
        }
    }

    /// The next packet of the input: the oldest one read ahead, else a new read (av_read_frame's result).
    private func nextPacket() -> Int32 {
        if lookahead.pop(into: packet) { return 0 }
        if lookahead.reachedEnd {
            lookahead.reachedEnd = false
            return CFFmpeg_AVERROR_EOF()
        }
        return av_read_frame(formatContext, packet)
    }

    /// While somebody listens to the sound, reads on past the picture at `seconds` until its
    /// sound is demuxed `soundLead` ahead of it (passed on at once), keeping the video packets read
    /// on the way for the next pictures — at most `lookaheadPackets`. The pictures are paced by
    /// the player, the sound is not: so the sound leaves the server ahead of its pictures. A live
    /// input is read ahead as it comes: its picture waits for its sound (a stream's muxer gathers
    /// a tenth of a second of sound or more into a packet, after the pictures of that time), at
    /// most until the pictures read on reach ``maximumLiveWait`` past it. A read error ends the
    /// look ahead and is met again by the next read of the decode loop.
    private func readSoundAhead(of seconds: Double) {
        guard let audio, audio.isListened else { return }
        while audio.demuxedUntil < seconds + Self.soundLead, !lookahead.isFull, !lookahead.reachedEnd, !draining {
            let read = av_read_frame(formatContext, packet)
            if read == CFFmpeg_AVERROR_EOF() { lookahead.reachedEnd = true }
            guard read >= 0 else { return }
            defer { av_packet_unref(packet) }
            if audio.take(packet) { continue }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let pictureTime = Double(packet.pointee.pts &- startTimestamp) * timeBase
            lookahead.push(movingFrom: packet)
            if !canSeek, packet.pointee.pts != CFFmpeg_AV_NOPTS_VALUE(), pictureTime > seconds + Self.maximumLiveWait { return }
        }
    }

    /// How far a live input's pictures are read on while waiting for a picture's sound: a sound
    /// that lags more plays out of sync rather than the pictures late.
    static let maximumLiveWait = 0.5

    private func skipCorrupt(_ code: Int32, at place: String) throws(MediaError) {
        // An interrupted read cuts packets short: that is the interruption, not a damaged file.
        if interruption.isRequested { throw .readFailed(input: input, reason: "the read was interrupted") }
        corruptPackets += 1
        if corruptPackets > 500 && limitsCorruption {
            throw .readFailed(input: input, reason: "too many corrupt packets in a row (\(averrorDescription(code)))")
        }
        warn("skipping corrupt \(place): \(averrorDescription(code))")
    }

    private func warn(_ message: String) {
        let now = ContinuousClock.now
        if let lastWarning, lastWarning.duration(to: now) < .seconds(1) {
            suppressedWarnings += 1
            return
        }
        let suppressed = suppressedWarnings > 0 ? " (and \(suppressedWarnings) more since the last warning)" : ""
        onWarning("\(input): \(message)\(suppressed)")
        lastWarning = now
        suppressedWarnings = 0
    }

    /// Seconds rounded to milliseconds, for messages.
    private func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }

    /// `avformat_open_input` and `avformat_find_stream_info` under `interruption` (armed by the
    /// caller); an interrupted or timed-out open says so instead of FFmpeg's "Immediate exit requested".
    private static func openInput(_ url: String, demuxer: UnsafePointer<AVInputFormat>?, options: [String: String],
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

    private static func release(format: inout UnsafeMutablePointer<AVFormatContext>?,
                                codec: inout UnsafeMutablePointer<AVCodecContext>?) {
        avcodec_free_context(&codec)
        avformat_close_input(&format)
    }
}
