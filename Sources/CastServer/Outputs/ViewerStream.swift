import CastProtocol
import FilterKit
import MediaKit
import Synchronization

/// The viewers' output: each frame they get is JPEG-encoded once, with its 32-byte header, into
/// the ``Broadcaster`` that every WebSocket viewer, MJPEG reader and snapshot reads from.
///
/// It wants filtered frames while anybody watches (``audience``, kept by the transport), at most
/// one per `--max-fps` interval, plus the paused re-renders and the placeholder. The first frame
/// made after a change — a seek or switch (the frame's discontinuity), a filter (its generation),
/// play or pause (the transport generation), going offline or back — carries the state-changed
/// flag.
///
/// Threads: ``audience`` and ``fps`` from any thread; `demand` and `take` on the processing
/// thread only, which alone touches the encoder and the render state.
final class ViewerStream: FrameOutput, Sendable {
    let broadcaster: Broadcaster
    /// Viewers, MJPEG readers and waiting snapshots: with none, nothing is encoded.
    let audience = Atomic<Int>(0)
    private let counters: ProcessingCounters
    private let minimumInterval: Duration?
    private let transportGeneration: @Sendable () -> Int
    private let rate = Mutex(FrameRate())
    nonisolated(unsafe) private let encoder: JPEGEncoder
    // Processing thread only: what the last published frame was made with, and when.
    nonisolated(unsafe) private var sequence: UInt64 = 0
    nonisolated(unsafe) private var rendered = (filter: -1, transport: -1, online: true)
    nonisolated(unsafe) private var lastEncode: ContinuousClock.Instant?

    /// Builds the encoder (a failure stops the server at start, saying why) and its broadcaster,
    /// which calls `wake` after each frame.
    init(width: Int, height: Int, quality: Int, maxFPS: Double?, counters: ProcessingCounters,
         transportGeneration: @escaping @Sendable () -> Int, wake: @escaping @Sendable () -> Void) throws(MediaError) {
        encoder = try JPEGEncoder(width: width, height: height, quality: quality)
        broadcaster = Broadcaster(maximumJPEGSize: encoder.maximumSize, wake: wake)
        self.counters = counters
        self.transportGeneration = transportGeneration
        minimumInterval = maxFPS.map(Duration.frameInterval(perSecond:))
    }

    /// Frames encoded per second, over the last second.
    var fps: Double { rate.withLock { $0.perSecond(now: .now) } }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        guard audience.load(ordering: .relaxed) > 0 else { return OutputDemand(declines: .noAudience) }
        let due = minimumInterval.map { interval in lastEncode.map { $0.duration(to: now) >= interval } ?? true } ?? true
        return OutputDemand(filtered: due, placeholder: true, rerender: true, isActive: true, declines: due ? nil : .maximumRate)
    }

    func take(_ frame: Frame, _ context: FrameContext) {
        let now = ContinuousClock.now
        if context.kind == .new { lastEncode = now }
        let current = (filter: context.filterGeneration, transport: transportGeneration(), online: context.kind != .placeholder)
        let changed = frame.isDiscontinuity || current != rendered
        sequence += 1
        // A frame the encoder refuses (it cannot happen with our own frames) is not published.
        do {
            try broadcaster.publish { buffer in
                buffer.jpegCount = try counters.encodeTime.time { try encoder.encode(frame, into: buffer.jpegDestination) }
                buffer.setHeader(FrameHeader(flags: changed ? .stateChanged : [], sequence: sequence,
                                             presentationTime: Int64((frame.time * 1e6).rounded()), sendTime: 0))
            }
            counters.framesEncoded.increment()
        } catch {
            counters.droppedEncodeFailed.increment()
        }
        rendered = current
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
