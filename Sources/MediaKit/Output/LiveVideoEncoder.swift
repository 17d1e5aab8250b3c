import CFFmpeg
import FilterKit
import Synchronization

/// One H.264 access unit of a live stream, lent to the sink for the length of the call.
public struct EncodedAccessUnit {
    /// Annex B bytes: start codes, and before a keyframe its SPS and PPS.
    public let bytes: UnsafeRawBufferPointer
    /// An IDR picture: a decoder can start here.
    public let isKeyframe: Bool
    /// The source's presentation time of the picture, seconds.
    public let time: Double
    /// The picture was offered as the first after a change (``LiveVideoEncoder/offer(_:changed:)``).
    public let isChanged: Bool
    /// How long the encoder took for it.
    public let encodeDuration: Duration
}

/// Encodes the frames offered to it to H.264 for viewers' decoders, on a thread of its own, and
/// hands every access unit to `sink` in decoding order: libx264 in Constrained Baseline,
/// `zerolatency` (one access unit out for each frame in, no B-frames), bits capped by a tight
/// VBV, a keyframe every `keyframeInterval` and whenever ``requestKeyframe()`` asks.
///
/// Threads: `offer` from the processing thread (it copies the frame and never waits: when the
/// encoder falls behind, the oldest waiting frame is dropped); `requestKeyframe` from any
/// thread; `sink` runs on the encoder thread.
public final class LiveVideoEncoder: Sendable {
    /// The encoder in use (`libx264`).
    public let name: String
    private let feed: EncoderFeed
    private let keyframeWanted = KeyframeWanted()

    /// Opens the encoder (throws when none opens: this FFmpeg has no H.264 encoder) and starts its
    /// thread. `preset` is x264's; `threads` its slice threads.
    public init(name threadName: String, width: Int, height: Int, frameRate: Double, cap: BitRateCap,
                keyframeInterval: Duration, preset: String, threads: Int,
                sink: @escaping @Sendable (EncodedAccessUnit) -> Void) throws(MediaError) {
        let encoder = try H264Encoder(width: width, height: height, frameRate: frameRate, preset: preset,
                                      profile: "baseline", threads: threads, globalHeader: false,
                                      encoders: H264Encoder.browserPreference, cap: cap, keyframeInterval: keyframeInterval)
        name = encoder.name
        let handOff = EncoderHandOff(encoder)
        let keyframeWanted = keyframeWanted
        feed = EncoderFeed(name: threadName, width: width, height: height, capacity: 2, timing: .source) { feed in
            Self.run(handOff.take(), feed: feed, keyframeWanted: keyframeWanted, sink: sink)
        }
    }

    /// Processing thread: encode (a copy of) `frame`; `changed`: it is the first after a change.
    public func offer(_ frame: Frame, changed: Bool) { feed.offer(frame, marked: changed) }

    /// The next picture encoded is a keyframe. Any thread.
    public func requestKeyframe() { keyframeWanted.set() }

    /// Frames dropped because the encoder had not taken the earlier ones yet.
    public var droppedFrames: Int { feed.droppedFrames }

    /// Stops the thread (frames still queued are not encoded).
    public func finish() {
        feed.close()
        feed.finish()
    }

    /// The encoder thread: each frame in turn, timestamped in milliseconds of its own clock (a
    /// source's times repeat and jump: re-renders, seeks), its access unit to `sink`.
    private static func run(_ encoder: H264Encoder, feed: EncoderFeed, keyframeWanted: KeyframeWanted,
                            sink: (EncodedAccessUnit) -> Void) {
        var lastStamp: Int64 = -1
        while let frame = feed.next() {
            defer { feed.recycle(frame) }
            if feed.isClosed { continue }
            let stamp = max(lastStamp + 1, Int64((feed.elapsed * 1000).rounded()))
            lastStamp = stamp
            let keyframe = keyframeWanted.take()
            let started = ContinuousClock.now
            do throws(MediaError) {
                try encoder.encode(frame, at: stamp, keyframe: keyframe) { packet in
                    sink(EncodedAccessUnit(bytes: UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)),
                                           isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0, time: frame.time,
                                           isChanged: frame.isDiscontinuity, encodeDuration: started.duration(to: .now)))
                }
            } catch {
                // x264 refuses no frame of ours; should one fail, the stream goes on with the next.
                keyframeWanted.set()
            }
        }
    }
}

/// Moves the encoder, made on the caller's thread so that a failure surfaces there, to the
/// encoder thread, which alone uses it from then on.
private final class EncoderHandOff: @unchecked Sendable {
    private var encoder: H264Encoder?

    init(_ encoder: H264Encoder) { self.encoder = encoder }

    func take() -> H264Encoder {
        defer { encoder = nil }
        return encoder!
    }
}

/// "Make the next picture a keyframe", set by any thread and taken by the encoder thread.
private final class KeyframeWanted: Sendable {
    private let wanted = Atomic<Bool>(true)

    func set() { wanted.store(true, ordering: .relaxed) }

    /// Whether it was set; clears it.
    func take() -> Bool { wanted.exchange(false, ordering: .relaxed) }
}
