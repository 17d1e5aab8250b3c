import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// One JPEG rendition: each frame its viewers get is scaled to its size (when smaller than the
/// source's) and JPEG-encoded once, with its 32-byte header, into the ``Broadcaster`` that every
/// viewer, MJPEG reader and snapshot on it reads from.
///
/// A rendition of a second picture (``Rendition/second``: the preview chain's in studio mode, the
/// source's before any chain) asks for that picture's frames instead of the program's.
///
/// It wants frames while anybody watches JPEG (``audience``, kept by the transport), as
/// ``ViewerPacing`` says, which also says which frame carries the state-changed flag.
///
/// Its size follows the source's (``RenditionSizes``, ``RungScale``): a frame of another size
/// than the last (another source plays) makes a new scaler and encoder.
///
/// Threads: ``audience``, ``rendition`` and ``fps`` from any thread; `demand` and `take` on the
/// processing thread only, which alone touches the encoder and the render state.
package final class ViewerStream: FrameOutput, Sendable {
    /// What it makes now (its size follows the source's).
    var rendition: Rendition {
        let source = sizes.source
        return scale.rendition(width: source.width, height: source.height)
    }
    private let scale: RungScale
    private let sizes: RenditionSizes
    private let quality: Int
    package let broadcaster: Broadcaster
    /// Viewers, MJPEG readers and waiting snapshots: with none, nothing is encoded.
    let audience = Atomic<Int>(0)
    /// How many of ``audience`` are snapshots waiting (kept by the core): an audience of snapshots
    /// only keeps no live input open.
    let snapshotsWaiting = Atomic<Int>(0)
    /// The JPEG of the last real frame (a source frame, never the placeholder), borrowed from the
    /// broadcaster so that it is not overwritten, and when it was made; kept only where
    /// `keepsLastPicture`: what a snapshot of a channel whose live input is closed (idle) is
    /// answered with.
    private let lastPicture = Mutex<(frame: EncodedFrame, madeAt: ContinuousClock.Instant)?>(nil)
    /// The renditions of the program (the snapshots') keep their last picture.
    private let keepsLastPicture: Bool
    private let counters: ProcessingCounters
    private let transportGeneration: @Sendable () -> Int
    private let rate = FrameRateMeter()
    // Processing thread only: the size of the source frames it was made for, the encoder, and
    // the scaler from the source's size to the rendition's with the frame it scales into (nil:
    // full size).
    nonisolated(unsafe) private var source: (width: Int, height: Int)
    nonisolated(unsafe) private var encoder: JPEGEncoder
    nonisolated(unsafe) private var scaling: (scaler: FrameScaler, frame: Frame)?
    // Processing thread only.
    nonisolated(unsafe) private var sequence: UInt64 = 0
    nonisolated(unsafe) private var pacing: ViewerPacing

    /// Builds the encoder for the rung `scale` says of a session whose source's size is `sizes`'
    /// (a failure stops the server at start, saying why) and its broadcaster, which calls `wake`
    /// after each frame. A rendition of the program keeps the JPEG of its last real frame
    /// (``keptPicture()``).
    init(scale: RungScale, sizes: RenditionSizes, quality: Int, maxFPS: Double?, counters: ProcessingCounters,
         transportGeneration: @escaping @Sendable () -> Int, wake: @escaping @Sendable () -> Void) throws(MediaError) {
        let source = sizes.source
        let rendition = scale.rendition(width: source.width, height: source.height)
        self.scale = scale
        self.sizes = sizes
        self.quality = quality
        self.source = source
        keepsLastPicture = rendition.isProgram
        (encoder, scaling) = try Self.encoding(rendition, from: source, quality: quality)
        broadcaster = Broadcaster(maximumJPEGSize: encoder.maximumSize, wake: wake)
        self.counters = counters
        self.transportGeneration = transportGeneration
        pacing = ViewerPacing(maxFPS: maxFPS)
    }

    /// Frames encoded per second, over the last second.
    var fps: Double { rate.perSecond }

    /// What it made lately (``RungProduction``).
    var production: RungProduction { rate.production }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        let audience = audience.load(ordering: .relaxed)
        var demand = pacing.demand(audience: audience, now: now)
        demand.onlySnapshots = demand.isActive && audience > 0 && snapshotsWaiting.load(ordering: .relaxed) >= audience
        return demand.of(scale.start.second)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let now = ContinuousClock.now
        let changed = pacing.take(frame, context, transport: transportGeneration(), now: now)
        sequence += 1
        // A frame the encoder refuses (it cannot happen with our own frames) is not published.
        do {
            if source != (frame.width, frame.height) { try follow(frame) }
            let picture = scaled(frame)
            try broadcaster.publish { buffer in
                buffer.reserve(bodySize: encoder.maximumSize)
                buffer.bodyCount = try counters.encodeTime.time { try encoder.encode(picture, into: buffer.bodyDestination) }
                buffer.setHeader(FrameHeader(flags: changed ? .stateChanged : [], sequence: sequence,
                                             presentationTime: Int64((frame.time * 1e6).rounded()), sendTime: 0))
            }
            counters.framesEncoded.increment()
            if keepsLastPicture && context.kind != .placeholder { keepLatestPicture(madeAt: now) }
        } catch {
            counters.droppedEncodeFailed.increment()
        }
        rate.record(now)
    }

    /// The encoder for `rendition` and the scaler to its size from `source`-sized frames (none
    /// when that is the rendition's).
    private static func encoding(_ rendition: Rendition, from source: (width: Int, height: Int),
                                 quality: Int) throws(MediaError) -> (JPEGEncoder, (scaler: FrameScaler, frame: Frame)?) {
        let (width, height) = (rendition.width, rendition.height)
        let encoder = try JPEGEncoder(width: width, height: height, quality: quality)
        guard source != (width, height) else { return (encoder, nil) }
        guard let scaler = FrameScaler(sourceWidth: source.width, sourceHeight: source.height, width: width, height: height) else {
            throw .encodeFailed(reason: "cannot scale \(source.width)x\(source.height) to \(width)x\(height)")
        }
        return (encoder, (scaler, Frame(width: width, height: height)))
    }

    /// Processing thread: `frame` is of another size than the source before (another source
    /// plays): the rendition becomes that source's rung.
    private func follow(_ frame: Frame) throws(MediaError) {
        let rendition = scale.rendition(width: frame.width, height: frame.height)
        (encoder, scaling) = try Self.encoding(rendition, from: (frame.width, frame.height), quality: quality)
        source = (frame.width, frame.height)
    }

    /// Processing thread: the frame just published becomes the last picture (the one before is
    /// given back to the broadcaster).
    private func keepLatestPicture(madeAt: ContinuousClock.Instant) {
        guard let latest = broadcaster.borrowLatest() else { return }
        if let before = lastPicture.withLock({ kept in defer { kept = (latest, madeAt) }; return kept }) {
            broadcaster.giveBack(before.frame)
        }
    }

    /// A copy of the JPEG of the last real frame and when it was made (nil: none yet, or not
    /// kept). Any thread.
    func keptPicture() -> KeptPicture? {
        lastPicture.withLock { kept in
            kept.map { KeptPicture(jpeg: Array($0.frame.body.bindMemory(to: UInt8.self)), madeAt: $0.madeAt) }
        }
    }

    /// `frame` at the rendition's size: itself, or scaled into the stream's own frame.
    private func scaled(_ frame: Frame) -> Frame {
        guard let scaling else { return frame }
        scaling.scaler.scale(frame, into: scaling.frame)
        return scaling.frame
    }
}

/// The JPEG of a rendition's last real picture (``ViewerStream/keptPicture()``), and when it was made.
struct KeptPicture: Equatable {
    let jpeg: [UInt8]
    let madeAt: ContinuousClock.Instant
}
