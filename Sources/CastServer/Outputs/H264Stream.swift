import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// One H.264 rendition for the page's decoders: each frame is encoded once, on the encoder's own
/// thread (``LiveVideoEncoder``), into the ``AccessUnitLog`` that every viewer on the rendition
/// is sent from, in order.
///
/// It wants frames while anybody watches it (``audience``, kept by the transport, and the
/// ``sharers``: a publish stream), as ``ViewerPacing`` says. A viewer that joins gets the newest keyframe if it is fresh, else asks
/// for one (``requestKeyframe()``, at most one a second, so that viewers joining cannot make
/// everybody's stream all keyframes); while paused the request also brings a re-render, the
/// picture to encode.
///
/// Threads: ``audience``, ``requestKeyframe()`` and the log from any thread; `demand` and `take`
/// on the processing thread only.
final class H264Stream: FrameOutput, Sendable {
    /// Keyframes forced for viewers come at most this often.
    static let forcedKeyframeInterval = Duration.seconds(1)
    /// The longest time between keyframes. Over TCP nothing is lost, so a keyframe is needed only
    /// where a viewer starts, moves or skips ahead — and those are forced — while each one costs
    /// everybody a second of lower quality under the tight cap (SSIM 0.89 → 0.98): rare.
    static let keyframeInterval = Duration.seconds(10)

    let rendition: Rendition
    let log: AccessUnitLog
    let audience = Atomic<Int>(0)
    let counters = RenditionCounters()
    /// Writers other than viewers that take the units (``SharedEncode``); they keep it encoding.
    let sharers = UnitSharers()
    private let encoder: LiveVideoEncoder
    private let transportGeneration: @Sendable () -> Int
    private let requestFrame: @Sendable () -> Void
    private let lastForced = Mutex<ContinuousClock.Instant?>(nil)
    private let made = FrameRateMeter()
    nonisolated(unsafe) private var pacing: ViewerPacing

    /// Opens the encoder for `rendition` (its index in the offer: `index`) of a `source`-sized
    /// session at `frameRate` (the rate frames come at, `--max-fps` applied; throws when this
    /// FFmpeg has no H.264 encoder). `wake` is called after each
    /// access unit; `requestFrame` asks for a re-render.
    init(rendition: Rendition, index: Int, source: (width: Int, height: Int), frameRate rate: Double, maxFPS: Double?,
         keyframeInterval: Duration,
         transportGeneration: @escaping @Sendable () -> Int, requestFrame: @escaping @Sendable () -> Void,
         wake: @escaping @Sendable () -> Void) throws(MediaError) {
        self.rendition = rendition
        self.transportGeneration = transportGeneration
        self.requestFrame = requestFrame
        pacing = ViewerPacing(maxFPS: maxFPS)
        let log = AccessUnitLog(picture: .init(width: rendition.width, height: rendition.height, rendition: index),
                                maximumUnits: Int((rate * keyframeInterval.seconds * 2).rounded(.up)) + 8)
        self.log = log
        let counters = counters
        let made = made
        let sharers = sharers
        let bits = rendition.bitsPerSecond ?? 2_000_000
        encoder = try LiveVideoEncoder(
            name: "h264", source: source, width: rendition.width, height: rendition.height, frameRate: rate,
            cap: BitRateCap(bitsPerSecond: bits, bufferBits: Self.bufferBits(bits, frameRate: rate)),
            keyframeInterval: keyframeInterval, preset: Self.preset(rendition, source: source, frameRate: rate), threads: 2) { unit in
            log.append(unit)
            counters.framesEncoded.increment()
            counters.bytesEncoded.increment(by: UInt64(unit.bytes.count))
            if unit.isKeyframe { counters.keyframes.increment() }
            counters.encodeTime.observe(unit.encodeDuration)
            made.record()
            sharers.deliver(unit)
            wake()
        }
    }

    /// The VBV buffer: about three frames' worth of bits, so that no access unit — a keyframe
    /// least of all — is more than a few frame times on a link of the stream's rate.
    static func bufferBits(_ bitsPerSecond: Int, frameRate: Double) -> Int {
        Int(Double(bitsPerSecond) * 3 / max(frameRate, 1))
    }

    /// The encoder in use (`libx264`).
    var encoderName: String { encoder.name }

    /// x264's preset: `superfast` at the source's size, where quality shows most (12.5 ms a 720p
    /// frame here, SSIM 0.983 on camera-like footage); `ultrafast` for the smaller renditions of
    /// slow links (half the time, 0.005 less), and at the source's size beyond 720p30's pixel rate
    /// (1080p30: 28% less time for SSIM 0.987 → 0.985), so that the whole ladder costs under half
    /// a core at 720p30 and under 80% at 1080p30.
    static func preset(_ rendition: Rendition, source: (width: Int, height: Int), frameRate: Double) -> String {
        let pixels = rendition.width * rendition.height
        let fullSize = pixels >= source.width * source.height
        return fullSize && Double(pixels) * frameRate <= 1280 * 720 * 30 ? "superfast" : "ultrafast"
    }

    /// Access units made per second, over the last second (refinements included).
    var fps: Double { made.perSecond }

    /// What it made lately, refinements included (``RungProduction``).
    var production: RungProduction { made.production }

    /// Any thread: a viewer needs a keyframe to start. Honoured at most once a
    /// ``forcedKeyframeInterval``; a newer one is then at most that old.
    func requestKeyframe() {
        let now = ContinuousClock.now
        let due = lastForced.withLock { last in
            guard last.map({ $0.duration(to: now) >= Self.forcedKeyframeInterval }) ?? true else { return false }
            last = now
            return true
        }
        guard due else { return }
        encoder.requestKeyframe()
        requestFrame()
    }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        pacing.demand(audience: audience.load(ordering: .relaxed) + sharers.count, now: now)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let changed = pacing.take(frame, context, transport: transportGeneration(), now: .now)
        encoder.offer(frame, changed: changed)
    }

    /// Stops the encoder thread.
    func finish() { encoder.finish() }
}
