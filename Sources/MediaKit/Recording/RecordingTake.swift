import FilterKit
import Foundation
import Synchronization
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// One recording in progress: the frame queue, the encoder thread and its counters.
///
/// The producer (`offer`) copies each frame into a pooled frame and never waits: when the
/// encoder falls behind, the oldest waiting frame is dropped and counted. The encoder thread
/// runs at a lower priority than the preview threads, so on a busy machine recording frames are
/// what gets dropped, never preview frames.
final class RecordingTake: Sendable {
    let name: String
    let filtered: Bool
    let encoderName: String
    let started = ContinuousClock.now
    private let queue: FrameQueue
    private let pool: FramePool
    private let bytes = Atomic<Int64>(0)
    private let dropped = Atomic<Int>(0)
    /// The recorder's count over all takes.
    private let droppedTotal: Counter
    /// Why the take stopped by itself, once it has.
    private let failure = Mutex<String?>(nil)
    nonisolated(unsafe) private var thread: WorkerThread?

    /// Starts the encoder thread on `writer`, which moves to it. `ended` is called on that thread
    /// when the take stops by itself (limit, disk space, write error), with the reason.
    init(writer: MP4Writer, name: String, filtered: Bool, width: Int, height: Int, options: RecorderOptions,
         droppedTotal: Counter, ended: @escaping @Sendable (RecordingTake, String) -> Void) {
        self.name = name
        self.droppedTotal = droppedTotal
        self.filtered = filtered
        encoderName = writer.encoderName
        queue = FrameQueue(capacity: options.queueCapacity, policy: .latestWins)
        pool = FramePool(width: width, height: height, capacity: options.queueCapacity + 2)
        nonisolated(unsafe) let writer = writer
        thread = WorkerThread(name: "record") { [self] in
            if let reason = encode(writer, options) { ended(self, reason) }
        }
    }

    /// Processing thread: queues a copy of `frame`, stamped with the time since the start.
    func offer(_ frame: Frame) {
        let copy = pool.take()
        copy.copy(from: frame)
        copy.time = started.duration(to: .now).seconds
        guard let displaced = queue.put(copy) else { return }
        if displaced !== copy {
            dropped.add(1, ordering: .relaxed)
            droppedTotal.increment()
        }
        pool.recycle(displaced)
    }

    /// Ends the take: the frames already queued are written, then the file is closed. Waits.
    func finish() {
        queue.close()
        thread?.join()
        thread = nil
    }

    var status: RecordingStatus {
        var status = RecordingStatus()
        status.name = name
        status.filtered = filtered
        status.elapsed = started.duration(to: .now).seconds
        status.bytes = bytes.load(ordering: .relaxed)
        status.droppedFrames = dropped.load(ordering: .relaxed)
        status.encoder = encoderName
        status.error = failure.withLock { $0 }
        return status
    }

    /// The encoder thread: returns why it stopped by itself, or nil when finished on request.
    private func encode(_ writer: MP4Writer, _ options: RecorderOptions) -> String? {
        // Below the preview threads: when the cores are busy, the encoder is what waits.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(currentThreadID()), 5)
        var reason: String?
        var lastSpaceCheck = ContinuousClock.now
        do throws(MediaError) {
            while reason == nil, let frame = queue.take() {
                defer { pool.recycle(frame) }
                try writer.write(frame, at: Int64((frame.time * 1000).rounded()))
                let written = writer.bytesWritten
                bytes.store(written, ordering: .relaxed)
                if let limit = options.maximumBytes, written >= limit {
                    reason = "the recording reached its size limit of \(Self.megabytes(limit)) MB (--max-record-size)"
                } else if lastSpaceCheck.duration(to: .now) >= .seconds(1) {
                    lastSpaceCheck = .now
                    reason = Self.spaceShortage(in: options.directory, minimum: options.minimumFreeBytes)
                }
            }
            try writer.finish()
        } catch {
            reason = reason ?? error.description
            try? writer.finish()
        }
        bytes.store(Self.fileSize(writer.path) ?? writer.bytesWritten, ordering: .relaxed)
        guard let reason else { return nil }
        failure.withLock { $0 = reason }
        queue.close()
        while let frame = queue.take() { pool.recycle(frame) }
        return reason
    }

    /// A message when `directory`'s file system has less than `minimum` bytes free, else nil.
    static func spaceShortage(in directory: String, minimum: Int64) -> String? {
        var info = statvfs()
        guard statvfs(directory, &info) == 0 else { return "cannot read the free space of \(directory)" }
        let free = Int64(info.f_bavail) * Int64(info.f_frsize)
        guard free < minimum else { return nil }
        return "only \(megabytes(free)) MB free in \(directory), under the minimum of \(megabytes(minimum)) MB"
    }

    static func megabytes(_ bytes: Int64) -> Int64 { bytes / 1_000_000 }

    private static func fileSize(_ path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }
}

/// glibc's `gettid` is hidden behind `_GNU_SOURCE` in the Glibc module.
@_silgen_name("gettid")
private func currentThreadID() -> Int32
