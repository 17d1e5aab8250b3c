import CFFmpeg
import FilterKit

/// Demuxes and decodes the video stream of one libavformat input into ``Frame``s.
///
/// Owns every FFmpeg object it creates and frees them in `deinit`. Not thread-safe: one thread
/// opens, reads and seeks it. The decoder's own `AVFrame` is never written to; pixels are copied
/// out (and converted to the frame format) by ``FrameConverter``. Its helpers: the opening
/// (`Decoder+Opening.swift`), the frames' timestamps (``TimestampReconstruction``), the sound
/// read ahead of the pictures (``SoundReadAhead``), the damage it meets (`Decoder+Damage.swift`)
/// and the pictures decoded ahead of need (`Decoder+Ahead.swift`).
final class Decoder {
    let input: String
    /// The input's audio stream, passed on unread to whoever listens; nil without one.
    let audio: AudioDemux?
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var codecContext: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let packets: SoundReadAhead
    let decoded: UnsafeMutablePointer<AVFrame>
    /// While a seek decodes toward its target: the latest picture before it, kept unconverted
    /// (only the picture a seek lands on is converted), and its timestamp.
    private let beforeTarget: UnsafeMutablePointer<AVFrame>
    private var beforeTargetTimestamp: Int64?
    /// The pictures a seek decoded on its way, for the steps after it (``DecodedPictureCache``).
    let stepCache: DecodedPictureCache
    /// While a seek decodes toward its target: its pictures go into ``stepCache``.
    var keepsPictures = false
    /// While a loop plays (``SeekableVideoSource/keepsPlayedPictures``): the pictures played stay
    /// in ``stepCache`` too, so that a wrap to the loop's in and what follows come from there.
    var keepsPlayedPictures = false
    /// The timestamp of the picture last delivered from ``stepCache`` when the decoder is not
    /// right after it: the next picture comes from the cache, or from positioning the decoder.
    var replaying: Int64?
    /// A run of pictures being decoded ahead of need (`Decoder+Ahead.swift`).
    var ahead: AheadRun?
    private let streamIndex: Int32
    private let converter: FrameConverter
    /// Stream time base in seconds per tick, and the stream's first timestamp.
    private let timeBase: Double
    private let startTimestamp: Int64
    private var timestamps: TimestampReconstruction
    /// The timestamp of the frame in `decoded` (stream ticks); nil when unknown.
    private(set) var decodedTimestamp: Int64?
    private var draining = false
    /// Packets the decoder refused as corrupt since the last frame.
    var corruptPackets = 0
    /// Whether a long run of corrupt packets ends the input. Not for files that can seek: they
    /// end by themselves, so a damaged stretch is skipped however long it is.
    let limitsCorruption: Bool
    /// Breaks blocking reads (see ``Interruption``); must outlive the format context.
    let interruption: Interruption
    /// Called with a one-line message for recoverable problems (corrupt packets, concealed
    /// errors), at most once a second: a damaged stream must not flood the log.
    var onWarning: (String) -> Void = { _ in }
    var warnings = WarningRateLimit()

    let width: Int
    let height: Int
    /// What the input itself delivers, before any scaling to `width × height`.
    let nativeWidth: Int
    let nativeHeight: Int
    let pixelFormat: String
    let codecName: String
    let frameRate: Double?
    /// Seconds; nil for live or unknown-length inputs.
    /// The container's metadata value for `key` (a tag such as `comment`), nil when absent.
    func metadata(_ key: String) -> String? {
        guard let entry = av_dict_get(formatContext?.pointee.metadata, key, nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }
    let duration: Double?
    /// Whether the container supports seeking (files do; pipes, devices and lavfi do not).
    let canSeek: Bool

    /// Opens `url` (with `inputFormat` such as "lavfi" or "v4l2" when not probed), finds the
    /// best video stream and opens its decoder with `threads` threads (0 = automatic). Opening —
    /// connecting, reading the header, probing the streams — gives up after `openTimeout` (an
    /// input that accepts a connection and then says nothing, a UDP port nobody sends to).
    /// Frames are `outputSize`, else the picture's own size reduced to `maximumPixels`. A seekable
    /// input keeps what `stepCache` allows of the pictures its seeks decode (``stepCache``).
    /// `preview`: pictures for small previews (thumbnails), decoded with shortcuts (see
    /// ``openVideoStream(of:url:threads:preview:)``): a seek lands a few frames after its target.
    init(url: String, inputFormat: String? = nil, options: [String: String] = [:],
         threads: Int = 1, outputSize: (width: Int, height: Int)? = nil, maximumPixels: Int? = nil,
         interruption: Interruption = Interruption(), openTimeout: Duration = .seconds(10),
         stepCache budget: StepCacheBudget = StepCacheBudget(), preview: Bool = false) throws(MediaError) {
        input = url
        self.interruption = interruption
        interruption.reset()  // a reopened source shares it with the read that failed
        let format = try Decoder.openInput(url, inputFormat: inputFormat, options: options,
                                           interruption: interruption, timeout: openTimeout)
        let video = try Decoder.openVideoStream(of: format, url: url, threads: threads, preview: preview)
        formatContext = format
        codecContext = video.context
        streamIndex = video.index
        codecName = video.codecName
        timeBase = av_q2d(video.stream.pointee.time_base)
        startTimestamp = video.stream.pointee.start_time == CFFmpeg_AV_NOPTS_VALUE() ? 0 : video.stream.pointee.start_time
        audio = AudioDemux(format: format, videoIndex: video.index, offset: Double(startTimestamp) * timeBase)
        let parameters = video.stream.pointee.codecpar!
        let native = (width: Int(parameters.pointee.width), height: Int(parameters.pointee.height))
        (nativeWidth, nativeHeight) = native
        (width, height) = outputSize
            ?? maximumPixels.map { PictureFit.size(ofWidth: native.width, height: native.height, maximumPixels: $0) }
            ?? native
        pixelFormat = av_get_pix_fmt_name(AVPixelFormat(rawValue: parameters.pointee.format)).map { String(cString: $0) } ?? "unknown"
        frameRate = Decoder.frameRate(of: video.stream, in: format)
        duration = Decoder.duration(of: video.stream, in: format)
        canSeek = Decoder.canSeek(format)
        stepCache = DecodedPictureCache(budget: budget, keeps: canSeek)
        limitsCorruption = !canSeek
        timestamps = TimestampReconstruction(startTimestamp: startTimestamp, frameRate: frameRate, timeBase: timeBase)
        packets = SoundReadAhead(format: format, audio: audio, videoIndex: video.index, isLive: !canSeek,
                                 startTimestamp: startTimestamp, timeBase: timeBase)
        converter = FrameConverter(width: width, height: height)
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
        beforeTarget = av_frame_alloc()
    }

    deinit {
        Decoder.release(format: &formatContext, codec: &codecContext)
        var packet: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&packet)
        var decoded: UnsafeMutablePointer<AVFrame>? = decoded
        av_frame_free(&decoded)
        var beforeTarget: UnsafeMutablePointer<AVFrame>? = beforeTarget
        av_frame_free(&beforeTarget)
    }

    /// Frames delivered since the open or the last seek (the next frame's `sequence`).
    private var sequence = 0

    /// Decodes the next frame into `frame`; false at the end.
    func decodeNext(into frame: Frame) throws(MediaError) -> Bool {
        if replaying != nil, let held = try nextAfterReplay() {
            frame.time = seconds(of: held.timestamp)
            frame.sequence = nextSequence()
            converter.convert(held.frame, into: frame)
            return true
        }
        guard try receiveNext() else { return false }
        frame.time = decodedSeconds
        frame.sequence = nextSequence()
        converter.convert(decoded, into: frame)
        av_frame_unref(decoded)
        return true
    }

    /// Decodes the next picture into `picture` (releasing what it held) without converting it;
    /// false at the end.
    func decodeNext(into picture: DecodedPicture) throws(MediaError) -> Bool {
        let held = replaying != nil ? try nextAfterReplay() : nil
        if held == nil, try !receiveNext() { return false }
        picture.release()
        if let held {
            picture.time = seconds(of: held.timestamp)
            av_frame_ref(picture.avFrame, held.frame)
        } else {
            picture.time = decodedSeconds
            av_frame_move_ref(picture.avFrame, decoded)
        }
        picture.sequence = nextSequence()
        return true
    }

    /// Playing on after steps the cache served: the picture after the playhead when it is held
    /// (nil once the decoder is right after the playhead again). When it is not held, the
    /// decoder is positioned after the playhead and its picture comes from ``receiveNext()``.
    private func nextAfterReplay() throws(MediaError) -> (timestamp: Int64, frame: UnsafeMutablePointer<AVFrame>)? {
        guard let playhead = replaying else { return nil }
        if let held = stepCache.successor(of: playhead) {
            replaying = held.timestamp == decodedTimestamp ? nil : held.timestamp
            return held
        }
        replaying = nil
        guard playhead != decodedTimestamp else { return nil }
        if try land(on: playhead &+ 1), let landed = decodedTimestamp, landed > playhead {
            pendingLanding = true
        } else {
            av_frame_unref(decoded)  // the playhead was the last picture: the decoder is at the end
        }
        return nil
    }

    /// A picture that positioning the decoder left in `decoded` for the next ``receiveNext()``.
    var pendingLanding = false

    /// The next picture in `decoded` (one that positioning left there, else a new one), its sound
    /// read ahead; playing on by decoding lets the step cache go.
    private func receiveNext() throws(MediaError) -> Bool {
        if pendingLanding {
            pendingLanding = false
        } else {
            guard try receiveFrame() else { return false }
            if stepCache.heldBytes > 0 && !keepsPlayedPictures { stepCache.release() }
        }
        stepCache.moved(to: decodedTimestamp ?? 0)
        readSoundAhead()
        return true
    }

    private func nextSequence() -> Int {
        defer { sequence += 1 }
        return sequence
    }

    /// Reads the sound ahead of the picture in `decoded` (see ``SoundReadAhead``).
    private func readSoundAhead() {
        packets.readAhead(of: decodedSeconds, using: packet, draining: draining)
    }

    /// Seeks so that the next frame decoded is the first with time ≥ `seconds`, decoding (and
    /// discarding) frames from the keyframe before it — or, when that keyframe is not after the
    /// picture delivered last, decoding on from there without seeking the input (a frame step
    /// forward costs a frame, not a GOP). Past the end, leaves the last frame in `frame`. Returns
    /// that frame's time.
    func seek(to seconds: Double, into frame: Frame) throws(MediaError) -> Double {
        guard canSeek else { throw .notSeekable(input: input) }
        let target = timestamp(at: seconds)
        audio?.seeking(to: max(0, seconds))
        pendingLanding = false
        if let held = stepCache.picture(atOrAfter: target) {
            replaying = held.timestamp == decodedTimestamp ? nil : held.timestamp
            return present(held.frame, at: held.timestamp, into: frame)
        }
        replaying = nil
        guard try land(on: target) else { throw .seekFailed(input: input, seconds: seconds, reason: "no frame found") }
        readSoundAhead()
        let time = present(decoded, at: decodedTimestamp, into: frame)
        av_frame_unref(decoded)
        return time
    }

    /// The stream timestamp of `seconds` from the start (rounded up to a tick; negative: 0).
    func timestamp(at seconds: Double) -> Int64 {
        // Clamped so that any position, however far past an unknown end, converts without trapping.
        startTimestamp &+ Int64(min((max(0, seconds) / timeBase - 1e-6).rounded(.up), Double(Int64.max / 4)))
    }

    /// Leaves in `decoded` the first picture at or after `target` (or the last one, past the
    /// end), keeping the pictures on the way in the step cache: by decoding on when that is
    /// sooner (``decodesOn(to:)``), else by seeking the input to the keyframe before `target`.
    /// False when no picture came.
    private func land(on target: Int64) throws(MediaError) -> Bool {
        stepCache.moved(to: target)  // the bound keeps what is near where the playhead goes
        keepsPictures = true
        defer { keepsPictures = false }
        if decodesOn(to: target), case .reached = try decodeOn(to: target, mustStartBefore: false) { return true }
        // Some files' indexes land after the target: back off further until they do not.
        for backoff in [0.0, 1, 5, 30, .infinity] {
            let result = seekInput(toKeyframeBefore: backoff.isInfinite ? startTimestamp : target &- Int64(backoff / timeBase))
            guard result >= 0 else {
                if backoff.isInfinite { throw .seekFailed(input: input, seconds: seconds(of: target), reason: averrorDescription(result)) }
                continue
            }
            if case .reached = try decodeOn(to: target, mustStartBefore: !backoff.isInfinite) { return true }
        }
        return false
    }

    /// Seeks the input to the keyframe at or before `target` (stream ticks) and flushes the
    /// decoder: the next picture decoded starts a new run. Returns av_seek_frame's result.
    func seekInput(toKeyframeBefore target: Int64) -> Int32 {
        packets.clear()
        let result = av_seek_frame(formatContext, streamIndex, target, AVSEEK_FLAG_BACKWARD)
        guard result >= 0 else { return result }
        avcodec_flush_buffers(codecContext)
        stepCache.runBroken()
        draining = false
        pendingLanding = false
        timestamps.sought()
        return result
    }

    /// Whether decoding on from the picture delivered last reaches `target` sooner than a seek:
    /// the keyframe a seek would land on is not after that picture (by the input's index; without
    /// one, when `target` is within a second).
    private func decodesOn(to target: Int64) -> Bool {
        guard !draining, let current = decodedTimestamp, target > current,
              let stream = formatContext?.pointee.streams[Int(streamIndex)] else { return false }
        if let keyframe = avformat_index_get_entry_from_timestamp(stream, target, AVSEEK_FLAG_BACKWARD) {
            return keyframe.pointee.timestamp <= current
        }
        return Double(target &- current) * timeBase <= 1
    }

    private enum DecodeOn {
        /// The first picture at or after the target (or the last one, at the end) is in `decoded`.
        case reached
        /// The first picture decoded is already after the target: the seek landed late.
        case landedAfter
        /// No picture came.
        case ended
    }

    /// Decodes until the first picture at or after `target`, left in `decoded`, converting none on
    /// the way; at the end, the last picture decoded. With `mustStartBefore`, a first picture
    /// after `target` is not taken (``DecodeOn/landedAfter``).
    private func decodeOn(to target: Int64, mustStartBefore: Bool) throws(MediaError) -> DecodeOn {
        defer { av_frame_unref(beforeTarget) }
        var held = false
        while try receiveFrame() {
            if !held, mustStartBefore, let timestamp = decodedTimestamp, timestamp > target {
                av_frame_unref(decoded)
                return .landedAfter
            }
            if decodedTimestamp.map({ $0 >= target }) ?? true { return .reached }
            av_frame_unref(beforeTarget)
            av_frame_move_ref(beforeTarget, decoded)
            beforeTargetTimestamp = decodedTimestamp
            held = true
        }
        guard held else { return .ended }
        av_frame_move_ref(decoded, beforeTarget)
        decodedTimestamp = beforeTargetTimestamp
        return .reached
    }

    /// Converts `picture` (at `timestamp`) into `frame`, numbered by its position from the start
    /// (a seek's), and makes it the playhead; returns its time.
    private func present(_ picture: UnsafeMutablePointer<AVFrame>, at timestamp: Int64?, into frame: Frame) -> Double {
        frame.time = timestamp.map(seconds(of:)) ?? 0
        let position = (frame.time * (frameRate ?? 30)).rounded()
        sequence = position.isFinite ? Int(min(max(position, 0), 1e15)) : 0
        frame.sequence = nextSequence()
        converter.convert(picture, into: frame)
        stepCache.moved(to: timestamp ?? 0)
        return frame.time
    }

    /// Seconds from the start of the frame in `decoded`; 0 when its time is unknown.
    private var decodedSeconds: Double { decodedTimestamp.map(seconds(of:)) ?? 0 }
    /// Seconds from the start of the stream at `timestamp`.
    private func seconds(of timestamp: Int64) -> Double { Double(timestamp &- startTimestamp) * timeBase }

    /// Runs the send/receive loop until the decoder yields a frame (true) or the stream ends.
    /// Corrupt packets are skipped with a warning; after 500 in a row a live input is given up.
    func receiveFrame() throws(MediaError) -> Bool {
        while true {
            let received = avcodec_receive_frame(codecContext, decoded)
            if received == 0 {
                frameReceived()
                return true
            }
            if received == CFFmpeg_AVERROR_EOF() { return false }
            if received != CFFmpeg_AVERROR(EAGAIN) {
                try skipCorrupt(received, at: "decoded frame")
                continue
            }
            if draining { return false }
            try sendNextPacket()
        }
    }

    /// The frame just received in `decoded`: its timestamp, and a warning when it is damaged.
    private func frameReceived() {
        corruptPackets = 0
        let noTimestamp = CFFmpeg_AV_NOPTS_VALUE()
        let pts = decoded.pointee.pts, guessed = decoded.pointee.best_effort_timestamp
        decodedTimestamp = timestamps.frameDecoded(presentationTime: pts == noTimestamp ? nil : pts,
                                                   bestEffort: guessed == noTimestamp ? nil : guessed)
        if keepsPictures || keepsPlayedPictures, let decodedTimestamp { stepCache.keep(decoded, at: decodedTimestamp) } else { stepCache.runBroken() }
        if decoded.pointee.decode_error_flags != 0 || decoded.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            warn("frame at \(milliseconds(decodedSeconds)) s has decoding errors (concealed)")
        }
    }

    /// Reads the next packet and sends it to the decoder when it is a picture's (a sound's goes
    /// to `audio`); at the end, starts draining the decoder.
    private func sendNextPacket() throws(MediaError) {
        let read = packets.nextPacket(into: packet)
        if read == CFFmpeg_AVERROR_EOF() {
            draining = true
            audio?.ended()
            avcodec_send_packet(codecContext, nil)
            return
        }
        if read < 0 {
            if read == CFFmpeg_AVERROR_INVALIDDATA() { return try skipCorrupt(read, at: "packet") }
            throw .readFailed(input: input, reason: averrorDescription(read))
        }
        defer { av_packet_unref(packet) }
        if audio?.take(packet) == true { return }
        guard packet.pointee.stream_index == streamIndex else { return }
        let noTimestamp = CFFmpeg_AV_NOPTS_VALUE()
        let dts = packet.pointee.dts, pts = packet.pointee.pts
        timestamps.packetSent(isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0,
                              decodeTime: dts == noTimestamp ? nil : dts, presentationTime: pts == noTimestamp ? nil : pts)
        let sent = avcodec_send_packet(codecContext, packet)
        if sent < 0 && sent != CFFmpeg_AVERROR(EAGAIN) {
            let time = Double(pts &- startTimestamp) * timeBase
            try skipCorrupt(sent, at: "packet at \(milliseconds(time)) s")
        }
    }
}
