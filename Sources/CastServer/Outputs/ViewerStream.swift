import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// The viewers' JPEG output: each frame they get is JPEG-encoded once, with its 32-byte header,
/// into the ``Broadcaster`` that every JPEG viewer, MJPEG reader and snapshot reads from.
///
/// It wants frames while anybody watches JPEG (``audience``, kept by the transport), as
/// ``ViewerPacing`` says, which also says which frame carries the state-changed flag.
///
/// Threads: ``audience`` and ``fps`` from any thread; `demand` and `take` on the processing
/// thread only, which alone touches the encoder and the render state.
final class ViewerStream: FrameOutput, Sendable {
    let broadcaster: Broadcaster
    /// Viewers, MJPEG readers and waiting snapshots: with none, nothing is encoded.
    let audience = Atomic<Int>(0)
    private let counters: ProcessingCounters
    private let transportGeneration: @Sendable () -> Int
    private let rate = Mutex(FrameRate())
    nonisolated(unsafe) private let encoder: JPEGEncoder
    // Processing thread only.
    nonisolated(unsafe) private var sequence: UInt64 = 0
    nonisolated(unsafe) private var pacing: ViewerPacing

    /// Builds the encoder (a failure stops the server at start, saying why) and its broadcaster,
    /// which calls `wake` after each frame.
    init(width: Int, height: Int, quality: Int, maxFPS: Double?, counters: ProcessingCounters,
         transportGeneration: @escaping @Sendable () -> Int, wake: @escaping @Sendable () -> Void) throws(MediaError) {
        encoder = try JPEGEncoder(width: width, height: height, quality: quality)
        broadcaster = Broadcaster(maximumJPEGSize: encoder.maximumSize, wake: wake)
        self.counters = counters
        self.transportGeneration = transportGeneration
        pacing = ViewerPacing(maxFPS: maxFPS)
    }

    /// Frames encoded per second, over the last second.
    var fps: Double { rate.withLock { $0.perSecond(now: .now) } }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        pacing.demand(audience: audience.load(ordering: .relaxed), now: now)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let now = ContinuousClock.now
        let changed = pacing.take(frame, context, transport: transportGeneration(), now: now)
        sequence += 1
        // A frame the encoder refuses (it cannot happen with our own frames) is not published.
        do {
            try broadcaster.publish { buffer in
                buffer.bodyCount = try counters.encodeTime.time { try encoder.encode(frame, into: buffer.bodyDestination) }
                buffer.setHeader(FrameHeader(flags: changed ? .stateChanged : [], sequence: sequence,
                                             presentationTime: Int64((frame.time * 1e6).rounded()), sendTime: 0))
            }
            counters.framesEncoded.increment()
        } catch {
            counters.droppedEncodeFailed.increment()
        }
        rate.withLock { $0.record(now) }
    }
}

/// Counts events in a sliding one-second window.
struct FrameRate {
    private var times: [ContinuousClock.Instant] = []

    mutating func record(_ instant: ContinuousClock.Instant) {
        if times.count >= 240 { times.removeFirst(times.count - 239) }
        times.append(instant)
    }

    mutating func perSecond(now: ContinuousClock.Instant) -> Double {
        times.removeAll { $0.duration(to: now) > .seconds(1) }
        return Double(times.count)
    }
}
