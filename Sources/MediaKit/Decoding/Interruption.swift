import CFFmpeg
import Synchronization

/// A way to break a source out of a blocking read from another thread (a stalled network
/// stream would otherwise keep `av_read_frame` — and so shutdown — waiting for ever), and a
/// watchdog that fails a read that has waited too long.
///
/// FFmpeg polls it through `AVFormatContext.interrupt_callback` while it waits for I/O; once
/// `interrupt()` is called, the pending and every later read fails at once. A deadline set with
/// `arm(for:)` fails the reads that are still waiting when it passes, until `disarm()`; after
/// that, `hasTimedOut` stays true until `reset()` (FFmpeg's UDP reader, for one, keeps the
/// failure and reports it on a later read).
public final class Interruption: Sendable {
    private let requested = Atomic<Bool>(false)
    /// Nanoseconds after `origin` when waiting reads fail; 0 when disarmed.
    private let deadline = Atomic<Int64>(0)
    private let origin = ContinuousClock.now
    private let timedOut = Atomic<Bool>(false)

    public init() {}

    public func interrupt() { requested.store(true, ordering: .releasing) }

    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Reads still waiting `timeout` from now fail.
    public func arm(for timeout: Duration) {
        deadline.store(max(1, nanoseconds(origin.duration(to: .now) + timeout)), ordering: .releasing)
    }

    public func disarm() { deadline.store(0, ordering: .releasing) }

    /// Whether a deadline has failed a read since the last `reset()`.
    public var hasTimedOut: Bool { timedOut.load(ordering: .acquiring) }

    /// Disarms and forgets a past timeout (for a new opening of the input).
    public func reset() {
        disarm()
        timedOut.store(false, ordering: .releasing)
    }

    /// What the callback answers: stop when asked to, or when an armed deadline has passed.
    fileprivate var shouldInterrupt: Bool {
        if isRequested {
            // What FFmpeg says about the read it gives up (a packet cut short) is not damage.
            FFmpegLog.interruptedOnPurpose()
            return true
        }
        let limit = deadline.load(ordering: .acquiring)
        guard limit != 0, nanoseconds(origin.duration(to: .now)) > limit else { return false }
        timedOut.store(true, ordering: .releasing)
        return true
    }

    /// The callback for `AVFormatContext.interrupt_callback`; `self` must outlive the context.
    var callback: AVIOInterruptCB {
        AVIOInterruptCB(callback: interruptionCallback, opaque: Unmanaged.passUnretained(self).toOpaque())
    }

    private func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}

private func interruptionCallback(_ opaque: UnsafeMutableRawPointer?) -> Int32 {
    guard let opaque else { return 0 }
    return Unmanaged<Interruption>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt ? 1 : 0
}
