import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// One JPEG rendition: each frame its viewers get is scaled to its size (when smaller than the
/// source's) and JPEG-encoded once, with its 32-byte header, into the ``Broadcaster`` that every
/// viewer, MJPEG reader and snapshot on it reads from.
///
/// A rendition of the preview (``Rendition/isPreview``, studio mode) asks for the preview
/// chain's frames instead of the program's.
///
/// It wants frames while anybody watches JPEG (``audience``, kept by the transport), as
/// ``ViewerPacing`` says, which also says which frame carries the state-changed flag.
///
/// Threads: ``audience`` and ``fps`` from any thread; `demand` and `take` on the processing
/// thread only, which alone touches the encoder and the render state.
final class ViewerStream: FrameOutput, Sendable {
    let rendition: Rendition
    let broadcaster: Broadcaster
    /// Viewers, MJPEG readers and waiting snapshots: with none, nothing is encoded.
    let audience = Atomic<Int>(0)
    private let counters: ProcessingCounters
    private let transportGeneration: @Sendable () -> Int
    private let rate = FrameRateMeter()
    nonisolated(unsafe) private let encoder: JPEGEncoder
    /// From the source's size to the rendition's, and the frame it scales into (nil: full size).
    nonisolated(unsafe) private let scaling: (scaler: FrameScaler, frame: Frame)?
    // Processing thread only.
    nonisolated(unsafe) private var sequence: UInt64 = 0
    nonisolated(unsafe) private var pacing: ViewerPacing

    /// Builds the encoder for `rendition` of a `source`-sized session (a failure stops the server
    /// at start, saying why) and its broadcaster, which calls `wake` after each frame.
    init(rendition: Rendition, source: (width: Int, height: Int), quality: Int, maxFPS: Double?, counters: ProcessingCounters,
         transportGeneration: @escaping @Sendable () -> Int, wake: @escaping @Sendable () -> Void) throws(MediaError) {
        self.rendition = rendition
        let (width, height) = (rendition.width, rendition.height)
        if source == (width, height) {
            scaling = nil
        } else if let scaler = FrameScaler(sourceWidth: source.width, sourceHeight: source.height, width: width, height: height) {
            scaling = (scaler, Frame(width: width, height: height))
        } else {
            throw .encodeFailed(reason: "cannot scale \(source.width)x\(source.height) to \(width)x\(height)")
        }
        encoder = try JPEGEncoder(width: width, height: height, quality: quality)
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
        let demand = pacing.demand(audience: audience.load(ordering: .relaxed), now: now)
        return rendition.isPreview ? demand.ofPreview : demand
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let now = ContinuousClock.now
        let changed = pacing.take(frame, context, transport: transportGeneration(), now: now)
        let picture = scaled(frame)
        sequence += 1
        // A frame the encoder refuses (it cannot happen with our own frames) is not published.
        do {
            try broadcaster.publish { buffer in
                buffer.bodyCount = try counters.encodeTime.time { try encoder.encode(picture, into: buffer.bodyDestination) }
                buffer.setHeader(FrameHeader(flags: changed ? .stateChanged : [], sequence: sequence,
                                             presentationTime: Int64((frame.time * 1e6).rounded()), sendTime: 0))
            }
            counters.framesEncoded.increment()
        } catch {
            counters.droppedEncodeFailed.increment()
        }
        rate.record(now)
    }

    /// `frame` at the rendition's size: itself, or scaled into the stream's own frame.
    private func scaled(_ frame: Frame) -> Frame {
        guard let scaling else { return frame }
        scaling.scaler.scale(frame, into: scaling.frame)
        return scaling.frame
    }
}
