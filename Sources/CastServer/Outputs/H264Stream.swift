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
/// A frame of another size than the last (another source plays) makes it that source's rung
/// (``RungScale``): a new encoder at the new size, whose first unit is a keyframe with its SPS —
/// unless a writer shares it (a publish stream, a recording: their muxer has the first size), in
/// which case the frames are fitted into its size (bars) until the last sharer leaves.
///
/// Threads: ``audience``, ``rendition``, ``requestKeyframe()`` and the log from any thread;
/// `demand` and `take` on the processing thread only.
final class H264Stream: FrameOutput, Sendable {
    /// Keyframes forced for viewers come at most this often.
    static let forcedKeyframeInterval = Duration.seconds(1)
    /// The longest time between keyframes. Over TCP nothing is lost, so a keyframe is needed only
    /// where a viewer starts, moves or skips ahead — and those are forced — while each one costs
    /// everybody a second of lower quality under the tight cap (SSIM 0.89 → 0.98): rare.
    static let keyframeInterval = Duration.seconds(10)

    /// What it makes now: the source's rung (``RenditionSizes``), or while it is shared the size
    /// its encoder was opened at.
    var rendition: Rendition {
        guard sharers.count == 0 else { return current.withLock { $0 } }
        let source = sizes.source
        return scale.rendition(width: source.width, height: source.height)
    }
    /// The encoder's rendition.
    private let current: Mutex<Rendition>
    private let scale: RungScale
    private let sizes: RenditionSizes
    let log: AccessUnitLog
    let audience = Atomic<Int>(0)
    let counters = RenditionCounters()
    /// Writers other than viewers that take the units (``SharedEncode``); they keep it encoding.
    let sharers = UnitSharers()
    private let encoder: Mutex<LiveVideoEncoder>
    /// Makes an encoder for a rendition of a source of a size (``LiveVideoEncoder``).
    private let makeEncoder: @Sendable (Rendition, (width: Int, height: Int)) throws(MediaError) -> LiveVideoEncoder
    /// Processing thread only: the size of the source frames the rendition was made for.
    nonisolated(unsafe) private var source: (width: Int, height: Int)
    private let transportGeneration: @Sendable () -> Int
    private let requestFrame: @Sendable () -> Void
    private let lastForced = Mutex<ContinuousClock.Instant?>(nil)
    private let made = FrameRateMeter()
    nonisolated(unsafe) private var pacing: ViewerPacing

    /// Opens the encoder for the rung `scale` says (its index in the offer: `index`) of a session
    /// whose source's size is `sizes'` at `frameRate` (the rate frames come at, `--max-fps`
    /// applied; throws when this FFmpeg has no H.264 encoder). `wake` is called after each access
    /// unit; `requestFrame` asks for a re-render.
    init(scale: RungScale, index: Int, sizes: RenditionSizes, frameRate rate: Double, maxFPS: Double?,
         keyframeInterval: Duration,
         transportGeneration: @escaping @Sendable () -> Int, requestFrame: @escaping @Sendable () -> Void,
         wake: @escaping @Sendable () -> Void) throws(MediaError) {
        let source = sizes.source
        let rendition = scale.rendition(width: source.width, height: source.height)
        self.scale = scale
        self.sizes = sizes
        self.source = source
        current = Mutex(rendition)
        self.transportGeneration = transportGeneration
        self.requestFrame = requestFrame
        pacing = ViewerPacing(maxFPS: maxFPS)
        let log = AccessUnitLog(rendition: index, maximumUnits: Int((rate * keyframeInterval.seconds * 2).rounded(.up)) + 8)
        self.log = log
        let counters = counters
        let made = made
        let sharers = sharers
        makeEncoder = { (rendition, source) throws(MediaError) in
            let bits = rendition.bitsPerSecond ?? 2_000_000
            return try LiveVideoEncoder(
                name: "h264", width: rendition.width, height: rendition.height, frameRate: rate,
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
        encoder = Mutex(try makeEncoder(rendition, source))
    }

    /// The VBV buffer: about three frames' worth of bits, so that no access unit — a keyframe
    /// least of all — is more than a few frame times on a link of the stream's rate.
    static func bufferBits(_ bitsPerSecond: Int, frameRate: Double) -> Int {
        Int(Double(bitsPerSecond) * 3 / max(frameRate, 1))
    }

    /// The encoder in use (`libx264`).
    var encoderName: String { encoder.withLock { $0.name } }

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

    /// The frames offered to the encoder and settled (``EncoderProgress``). Any thread.
    var encoderProgress: EncoderProgress { encoder.withLock { $0.progress } }

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
        encoder.withLock { $0.requestKeyframe() }
        requestFrame()
    }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        pacing.demand(audience: audience.load(ordering: .relaxed) + sharers.count, now: now)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let changed = pacing.take(frame, context, transport: transportGeneration(), now: .now)
        if source != (frame.width, frame.height) && sharers.count == 0 { follow(frame) }
        encoder.withLock { $0.offer(frame, changed: changed) }
    }

    /// Processing thread: `frame` is of another size than the source before (another source
    /// plays): the rendition becomes that source's rung, encoded by a new encoder once the old
    /// one has handed over its last unit (so the log stays in order). Should no encoder open at
    /// the new size, the old one goes on, fitting the frames into its size.
    private func follow(_ frame: Frame) {
        let size = (width: frame.width, height: frame.height)
        source = size
        let rendition = scale.rendition(width: size.width, height: size.height)
        let now = current.withLock { $0 }
        guard (rendition.width, rendition.height) != (now.width, now.height) else { return }
        guard let next = try? makeEncoder(rendition, size) else { return }
        let old = encoder.withLock { encoder in defer { encoder = next }; return encoder }
        old.finish()
        current.withLock { $0 = rendition }
        // Shared until now, the offer said the old size (viewers already told are not told again).
        sizes.renditionChanged()
    }

    /// Stops the encoder thread.
    func finish() { encoder.withLock { $0.finish() } }
}
