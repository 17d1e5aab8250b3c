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
    /// The picture's size.
    public let width: Int
    public let height: Int
}

/// Encodes the frames offered to it to H.264 for viewers' decoders, on a thread of its own, and
/// hands every access unit to `sink` in decoding order: libx264 in Constrained Baseline,
/// `zerolatency` (one access unit out for each frame in, no B-frames), bits capped by a tight
/// VBV, a keyframe every `keyframeInterval` and whenever ``requestKeyframe()`` asks.
///
/// A still picture is refined: when no newer frame follows within half again the interval
/// pictures come at (``StillWait``: paused, a change while paused, a stalled source), the same
/// picture is encoded again, finer, up to
/// ``refinements`` times. A change made while paused arrives at once at the stream's cap and
/// then sharpens within a few frames, as a still scene does from a camera; the units after
/// that cost next to nothing.
///
/// Threads: `offer` from the processing thread (it copies the frame and never waits: when the
/// encoder falls behind, the oldest waiting frame is dropped); `requestKeyframe` from any
/// thread; `sink` runs on the encoder thread.
public final class LiveVideoEncoder: Sendable {
    /// How often a still picture is encoded again.
    public static let refinements = 8
    /// The CRF of the refinements: finer than a moving picture needs, as a still is looked at.
    static let stillQuality = 15.0

    /// The encoder in use (`libx264`).
    public let name: String
    private let feed: EncoderFeed
    private let counts = EncoderProgressCounts()
    private let keyframeWanted = KeyframeWanted()
    /// The size of the pictures it encodes.
    public let width: Int
    public let height: Int

    /// Opens the encoder (throws when none opens: this FFmpeg has no H.264 encoder) and starts its
    /// thread. Frames offered of another size are scaled to `width × height` (``FrameFitter``).
    /// `preset` is x264's; `threads` its slice threads.
    public init(name threadName: String, width: Int, height: Int, frameRate: Double,
                cap: BitRateCap, keyframeInterval: Duration, preset: String, threads: Int,
                sink: @escaping @Sendable (EncodedAccessUnit) -> Void) throws(MediaError) {
        (self.width, self.height) = (width, height)
        let encoder = try H264Encoder(width: width, height: height, frameRate: frameRate, preset: preset,
                                      profile: "baseline", threads: threads, globalHeader: false,
                                      encoders: H264Encoder.browserPreference, cap: cap, keyframeInterval: keyframeInterval)
        name = encoder.name
        let handOff = EncoderHandOff(encoder)
        let keyframeWanted = keyframeWanted
        let counts = counts
        feed = EncoderFeed(name: threadName, width: width, height: height, capacity: 2, timing: .source) { feed in
            Self.run(handOff.take(), feed: feed, keyframeWanted: keyframeWanted, counts: counts, sink: sink)
        }
    }

    /// Processing thread: encode (a copy of) `frame`; `changed`: it is the first after a change.
    public func offer(_ frame: Frame, changed: Bool) {
        counts.offered.add(1, ordering: .relaxed)
        feed.offer(frame, marked: changed)
    }

    /// Frames offered and settled so far (``EncoderProgress``). Any thread.
    public var progress: EncoderProgress { counts.progress(displaced: feed.droppedFrames) }

    /// The next picture encoded is a keyframe. Any thread.
    public func requestKeyframe() { keyframeWanted.set() }

    /// Frames dropped because the encoder had not taken the earlier ones yet.
    public var droppedFrames: Int { feed.droppedFrames }

    /// Stops the thread (frames still queued are not encoded).
    public func finish() {
        feed.close()
        feed.finish()
    }

    /// The encoder thread: each frame in turn, then refinements of the last while no newer comes.
    private static func run(_ encoder: H264Encoder, feed: EncoderFeed, keyframeWanted: KeyframeWanted,
                            counts: EncoderProgressCounts, sink: (EncodedAccessUnit) -> Void) {
        var clock = StreamClock()
        var held: Frame?
        var refined = 0
        var stillWait = StillWait(interval: .milliseconds(encoder.frameMilliseconds))
        while true {
            // Slack past the pictures' own cadence, so that a picture that is merely late, or a
            // source slower than it declares, is not taken for a still.
            // (Once refining, the refinements follow each other at the stream's own pace.)
            let wait = refined == 0 ? stillWait.timeout : stillWait.interval * 3 / 2
            let next = feed.next(timeout: held != nil && refined < refinements ? wait : nil)
            if let next {
                stillWait.arrived(at: .now)
                if let held { feed.recycle(held) }
                held = next
                refined = 0
                encoder.setConstantQuality(H264Encoder.streamQuality)
            } else if feed.isClosed {
                break
            } else {
                refined += 1
                if refined == 1 { encoder.setConstantQuality(stillQuality) }
            }
            guard let picture = held, !feed.isClosed else { continue }
            encode(picture, isChanged: next != nil && picture.isDiscontinuity, stamp: clock.next(feed.elapsed),
                   keyframe: keyframeWanted, with: encoder, sink: sink)
            if next != nil { counts.encoded.add(1, ordering: .releasing) }
        }
        if let held { feed.recycle(held) }
    }

    /// Encodes `picture` at `stamp` (ms) and hands its access unit to `sink`.
    private static func encode(_ picture: Frame, isChanged: Bool, stamp: Int64, keyframe: KeyframeWanted,
                               with encoder: H264Encoder, sink: (EncodedAccessUnit) -> Void) {
        let started = ContinuousClock.now
        do throws(MediaError) {
            try encoder.encode(picture, at: stamp, keyframe: keyframe.take()) { packet in
                sink(EncodedAccessUnit(bytes: UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)),
                                       isKeyframe: packet.pointee.flags & AV_PKT_FLAG_KEY != 0, time: picture.time,
                                       isChanged: isChanged, encodeDuration: started.duration(to: .now),
                                       width: picture.width, height: picture.height))
            }
        } catch {
            // x264 refuses no frame of ours; should one fail, the stream goes on with a keyframe.
            keyframe.set()
        }
    }
}

/// The encoder's timestamps: milliseconds of wall time since the feed started, strictly
/// increasing (a source's own times repeat and jump: re-renders, seeks, refinements).
private struct StreamClock {
    private var last: Int64 = -1

    mutating func next(_ elapsed: Double) -> Int64 {
        last = max(last + 1, Int64((elapsed * 1000).rounded()))
        return last
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
