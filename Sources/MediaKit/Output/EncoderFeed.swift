import FilterKit
import Synchronization
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// Frames from the processing thread to an encoder thread of their own (a recording, a publish
/// stream, the viewers' H.264): a bounded queue of pooled copies and the thread that takes them.
///
/// `offer` copies the frame, stamps it with the time since the feed started (or keeps the
/// source's time: ``Timing``) and never waits: when the encoder falls behind, the oldest waiting
/// frame is dropped and counted. A background feed's thread runs at a lower priority than the
/// preview threads, so on a busy machine its frames are what gets dropped, never preview frames.
final class EncoderFeed: Sendable {
    let started = ContinuousClock.now
    private let queue: FrameQueue
    private let pool: FramePool
    private let dropped = Atomic<Int>(0)
    private let timing: Timing
    /// Processing thread only: frames of another size than the feed's are scaled into it.
    nonisolated(unsafe) private let fitter: FrameFitter
    /// Also counts the drops: the owner's count over all its feeds.
    private let droppedTotal: Counter?
    nonisolated(unsafe) private var thread: WorkerThread?

    /// What a queued frame's `time` is.
    enum Timing {
        /// Seconds since the feed started, at a lower thread priority (recording, publishing).
        case sinceStart
        /// The source's presentation time, at the preview's priority (what viewers watch).
        case source
    }

    /// Starts `body` on a thread called `name`; it takes frames with ``next(timeout:)`` and gives
    /// them back with ``recycle(_:)``. Frames are `width × height`; `capacity` wait at most;
    /// drops are also counted in `droppedTotal`.
    init(name: String, width: Int, height: Int, capacity: Int, timing: Timing = .sinceStart, droppedTotal: Counter? = nil,
         body: @escaping @Sendable (EncoderFeed) -> Void) {
        self.droppedTotal = droppedTotal
        self.timing = timing
        queue = FrameQueue(capacity: capacity, policy: .latestWins)
        pool = FramePool(width: width, height: height, capacity: capacity + 2)
        fitter = FrameFitter(width: width, height: height)
        thread = WorkerThread(name: name) { [self] in
            // Below the preview threads: when the cores are busy, the encoder is what waits.
            if timing == .sinceStart { setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(currentThreadID()), 10) }
            body(self)
        }
    }

    /// Processing thread: queues a copy of `frame` (fitted to the feed's size: ``FrameFitter``), timed as the feed's ``Timing`` says — or at `time` when given (a recording's and a
    /// publish stream's: the source's time, which their writer puts on its ``OutputTimeline``) —,
    /// its `isDiscontinuity` set to `marked` (what that means is the encoder thread's business).
    func offer(_ frame: Frame, at time: Double? = nil, marked: Bool = false) {
        let copy = pool.take()
        fitter.fit(frame, into: copy)
        if timing == .sinceStart { copy.time = time ?? elapsed }
        copy.isDiscontinuity = marked
        guard let displaced = queue.put(copy) else { return }
        if displaced !== copy {
            dropped.add(1, ordering: .relaxed)
            droppedTotal?.increment()
        }
        pool.recycle(displaced)
    }

    /// Encoder thread: the oldest waiting frame, waiting at most `timeout` when given; nil when
    /// the time is up, or once closed and drained.
    func next(timeout: Duration? = nil) -> Frame? { queue.take(timeout: timeout) }

    /// Encoder thread: a frame from ``next(timeout:)`` is done with.
    func recycle(_ frame: Frame) { pool.recycle(frame) }

    /// No more frames: `next` drains what is queued, then returns nil. Any thread.
    func close() { queue.close() }

    /// Whether `close()` (or `finish()`) was called.
    var isClosed: Bool { queue.isClosed }

    /// Seconds since the feed started: the time `offer` stamps a frame with.
    var elapsed: Double { started.duration(to: .now).seconds }

    /// Encoder thread, after `close()`: drops the frames still queued.
    func discardQueued() {
        while let frame = queue.take() { pool.recycle(frame) }
    }

    /// Closes the feed and waits for the thread to end. Not from the feed's own thread.
    func finish() {
        queue.close()
        thread?.join()
        thread = nil
    }

    /// Frames dropped because the encoder had not taken the earlier ones yet.
    var droppedFrames: Int { dropped.load(ordering: .relaxed) }
}

/// glibc's `gettid` is hidden behind `_GNU_SOURCE` in the Glibc module.
@_silgen_name("gettid")
private func currentThreadID() -> Int32
