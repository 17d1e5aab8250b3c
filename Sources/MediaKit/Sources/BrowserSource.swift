import CFFmpeg
import FilterKit
import Foundation
import Synchronization

/// A live source fed from outside: the pictures of a browser's camera, sent over the WebSocket
/// (`share`) as H.264 access units or JPEGs, each with its capture time. They are decoded with
/// libavcodec — no demuxer, so no probing delay and no parser holding a picture back — converted
/// to the session's size and given out with the capture time (µs on the sender's clock) as their
/// time, so that the frames made from them carry it back to the sender.
///
/// A browser's bitstream is untrusted: pictures are copied into a ``UnitQueue`` of at most
/// ``queueCapacity`` (when the decoder falls behind, the waiting pictures are dropped and H.264
/// waits for a keyframe: ``offer(_:keyframe:captureTime:)`` says so), the decoder refuses
/// pictures over the announced size's pixels and allocates none with a side over the announced
/// one's macroblocks (``PictureBound``), and a picture of another size than announced ends the
/// source with that error.
///
/// Its sound, when the sharer sends its microphone's, is ``audio``: Opus packets on the same
/// clock, routed to the player's audio queue like a demuxed stream's (``routeAudio(to:)``); while
/// pages play it, each picture waits for its sound (``soundLead``, BrowserSource+SoundWait).
///
/// Threads: `offer`, `audio` and `end` from any thread; the rest from the reading thread.
public final class BrowserSource: VideoSource, @unchecked Sendable {
    /// How the pictures come.
    public enum Codec: String, Sendable {
        case h264
        case jpeg
    }

    public let info: SourceInfo
    public let interruption = Interruption()
    /// The microphone's packets, when the sharer sends them.
    public let audio: BrowserAudio?
    public var onWarning: (String) -> Void = { _ in }
    /// 0.2 s at 60 fps, and some: what may wait behind a picture that waits for its sound.
    public static let queueCapacity = 12
    private let announced: (width: Int, height: Int)
    private let stallTimeout: Duration
    private let codec: Codec
    private let converter: FrameConverter
    private let bound: PictureBound
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var decoded: UnsafeMutablePointer<AVFrame>?
    private var sequence = 0
    /// When the picture decoded last was queued.
    private var pictureQueuedAt = ContinuousClock.now
    /// The longest a picture waits for its sound (BrowserSource+SoundWait).
    let soundWait: Duration
    private let queue = UnitQueue(capacity: BrowserSource.queueCapacity)
    /// Why the source ended (`end(reason:)`), once it has.
    private let ended = Mutex<String?>(nil)

    /// Pictures of `announced` size in `codec`, given out as `width × height` frames; a read that
    /// waits `stallTimeout` for a picture fails (the sender is gone or stalled). `name` is the
    /// camera's label; `audio`, the sound it announced (Opus of that many channels and rate), if
    /// any, for which each picture waits at most `soundWait`.
    public init(codec: Codec, name: String, announced: (width: Int, height: Int), width: Int, height: Int,
                frameRate: Double, stallTimeout: Duration, audio: (channels: Int, rate: Int)? = nil,
                soundWait: Duration = BrowserSource.maximumSoundWait) throws(MediaError) {
        self.codec = codec
        self.soundWait = soundWait
        self.announced = announced
        self.stallTimeout = stallTimeout
        if let audio {
            guard let sound = BrowserAudio(channels: audio.channels, rate: audio.rate) else {
                throw .openFailed(input: name, reason: "no memory for its sound")
            }
            self.audio = sound
        } else {
            self.audio = nil
        }
        info = SourceInfo(name: name, width: width, height: height, codec: codec.rawValue, frameRate: frameRate, isLive: true,
                          audio: self.audio?.info)
        converter = FrameConverter(width: width, height: height)
        bound = PictureBound(announced: announced)
        FFmpegLog.install()  // a damaged picture's decode errors go through the (rate-limited) log
        guard let decoder = avcodec_find_decoder(codec == .h264 ? AV_CODEC_ID_H264 : AV_CODEC_ID_MJPEG),
              let context = avcodec_alloc_context3(decoder) else {
            throw .unsupportedCodec(input: name, codec: codec.rawValue)
        }
        self.context = context
        context.pointee.thread_count = 1
        context.pointee.flags |= CFFmpeg_AV_CODEC_FLAG_LOW_DELAY()
        context.pointee.pkt_timebase = AVRational(num: 1, den: 1_000_000)
        // A stream that claims more pixels than announced is refused before anything is allocated.
        // libavcodec checks the buffer's padded size (the width aligned to its stride alignment,
        // up to 64), so the bound has that slack; the decoded size must then be the announced one.
        context.pointee.max_pixels = Int64((announced.width + 63) / 64 * 64 * ((announced.height + 31) / 32 * 32))
        bound.install(on: context)
        let result = avcodec_open2(context, decoder, nil)
        guard result >= 0 else { throw .openFailed(input: name, reason: averrorDescription(result)) }
        packet = av_packet_alloc()
        decoded = av_frame_alloc()
    }

    deinit {
        avcodec_free_context(&context)
        av_packet_free(&packet)
        av_frame_free(&decoded)
    }

    /// Any thread: queues a copy of one encoded picture. False when it was dropped — the decoder
    /// fell behind, or H.264 waits for a keyframe after a drop — so the sender should send a
    /// keyframe next.
    @discardableResult
    public func offer(_ payload: UnsafeRawBufferPointer, keyframe: Bool, captureTime: Int64) -> Bool {
        // Every JPEG stands alone.
        let taken = queue.offer(payload, keyframe: keyframe || codec == .jpeg, time: captureTime) == .queued
        if taken { hurryWhenBackedUp() }
        return taken
    }

    /// How many pictures wait to be decoded.
    var queuedCount: Int { queue.count }

    /// Any thread: why the source ended — `end(reason:)`'s reason, or a picture of another size
    /// than announced — or nil while it runs.
    public var endReason: String? { ended.withLock { $0 } }

    /// Any thread: no more pictures nor sound; the next read fails with `reason`.
    public func end(reason: String) {
        ended.withLock {
            if $0 == nil { $0 = reason }
            audio?.route(to: nil)
        }
        queue.close()
    }

    /// The reading thread: the microphone's packets go to `queue` (while the source has not ended).
    public func routeAudio(to queue: AudioPacketQueue?) {
        // Under `ended`'s lock: an `end` at the same time cannot be undone.
        ended.withLock { audio?.route(to: $0 == nil ? queue : nil) }
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        guard let decoded else { return false }
        try decodeNext()
        waitForSound(of: decoded.pointee.best_effort_timestamp, queuedAt: pictureQueuedAt)
        frame.time = Double(decoded.pointee.best_effort_timestamp) / 1_000_000
        frame.sequence = sequence
        sequence += 1
        converter.convert(decoded, into: frame)
        av_frame_unref(decoded)
        return true
    }

    public func read(into picture: DecodedPicture) throws(MediaError) -> Bool {
        guard let decoded else { return false }
        try decodeNext()
        waitForSound(of: decoded.pointee.best_effort_timestamp, queuedAt: pictureQueuedAt)
        picture.release()
        picture.time = Double(decoded.pointee.best_effort_timestamp) / 1_000_000
        picture.sequence = sequence
        sequence += 1
        av_frame_move_ref(picture.avFrame, decoded)
        return true
    }

    /// Until the decoder gives a picture (into `decoded`): the next queued one in. An ended
    /// source fails first, before a picture the decoder still holds.
    private func decodeNext() throws(MediaError) {
        guard let context, let decoded, let packet else { return }
        if let reason = ended.withLock({ $0 }) { throw .readFailed(input: info.name, reason: reason) }
        while avcodec_receive_frame(context, decoded) != 0 {
            let unit = try nextQueued()
            defer { recycle(unit) }
            pictureQueuedAt = unit.queuedAt
            let bytes = unit.bytes
            packet.pointee.data = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            packet.pointee.size = Int32(bytes.count)
            packet.pointee.pts = unit.time
            packet.pointee.dts = unit.time
            packet.pointee.flags = unit.isKeyframe ? AV_PKT_FLAG_KEY : 0
            let sent = avcodec_send_packet(context, packet)
            av_packet_unref(packet)
            if sent < 0 { onWarning("\(info.name): a picture did not decode (\(averrorDescription(sent))); skipped") }
        }
        guard Int(decoded.pointee.width) == announced.width, Int(decoded.pointee.height) == announced.height else {
            let reason = "its pictures are \(decoded.pointee.width)x\(decoded.pointee.height), "
                + "not the \(announced.width)x\(announced.height) announced"
            av_frame_unref(decoded)
            end(reason: reason)  // the sender is not what it said: later pictures are refused too
            throw .readFailed(input: info.name, reason: reason)
        }
    }

    /// The oldest queued picture; waits for one at most `stallTimeout` (a tenth of a second at a
    /// time, to see an interruption).
    private func nextQueued() throws(MediaError) -> CopiedUnit {
        let deadline = Date(timeIntervalSinceNow: stallTimeout.seconds)
        while true {
            if let unit = queue.next(before: min(deadline, Date(timeIntervalSinceNow: 0.1))) { return unit }
            if let reason = ended.withLock({ $0 }) { throw .readFailed(input: info.name, reason: reason) }
            if interruption.isRequested { throw .readFailed(input: info.name, reason: "interrupted") }
            if Date() >= deadline {
                throw .readFailed(input: info.name, reason: "no picture for \(stallTimeout.secondsText) s")
            }
        }
    }

    private func recycle(_ unit: CopiedUnit) { queue.recycle(unit) }
}
