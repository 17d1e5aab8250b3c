import FilterKit
import Foundation
import Synchronization
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// One recording in progress: its ``EncoderFeed`` (frame queue and encoder thread) and counters.
final class RecordingTake: Sendable {
    let name: String
    let filtered: Bool
    let encoderName: String
    private let bytes = Atomic<Int64>(0)
    private let heldFrames = Atomic<Int>(0)
    /// Why the take stopped by itself, once it has.
    private let failure = Mutex<String?>(nil)
    nonisolated(unsafe) private var feed: EncoderFeed?

    /// Starts the encoder thread on `writer`, which moves to it. `ended` is called on that thread
    /// when the take stops by itself (limit, disk space, write error), with the reason. While no
    /// frame comes the last one is written again at `frameRate` (see ``HeldPicture``).
    init(writer: VideoWriter, name: String, filtered: Bool, width: Int, height: Int, frameRate: Double,
         options: RecorderOptions, droppedTotal: Counter, ended: @escaping @Sendable (RecordingTake, String) -> Void) {
        self.name = name
        self.filtered = filtered
        encoderName = writer.encoderName
        nonisolated(unsafe) let writer = writer
        feed = EncoderFeed(name: "record", width: width, height: height, capacity: options.queueCapacity,
                           droppedTotal: droppedTotal) { [self] feed in
            if let reason = encode(writer, feed, HeldPicture(frameRate: frameRate), options) { ended(self, reason) }
        }
    }

    /// Processing thread: queues a copy of `frame`, stamped with the time since the start.
    func offer(_ frame: Frame) {
        feed?.offer(frame)
    }

    /// Ends the take: the frames already queued are written, then the file is closed. Waits.
    func finish() {
        feed?.finish()
    }

    var status: RecordingStatus {
        var status = RecordingStatus()
        status.name = name
        status.filtered = filtered
        status.elapsed = feed.map { $0.started.duration(to: .now).seconds } ?? 0
        status.bytes = bytes.load(ordering: .relaxed)
        status.droppedFrames = feed?.droppedFrames ?? 0
        status.heldFrames = heldFrames.load(ordering: .relaxed)
        status.encoder = encoderName
        status.error = failure.withLock { $0 }
        return status
    }

    /// The encoder thread: returns why it stopped by itself, or nil when finished on request
    /// with frames in the file. A take that wrote no frame leaves no file: that is the reason.
    private func encode(_ writer: VideoWriter, _ feed: EncoderFeed, _ held: HeldPicture,
                        _ options: RecorderOptions) -> String? {
        var reason: String?
        var lastSpaceCheck = ContinuousClock.now
        var framesWritten = 0
        var held = held
        defer { held.release(to: feed) }
        do throws(MediaError) {
            while reason == nil, let frame = held.next(from: feed) {
                try writer.write(frame, at: Int64((frame.time * 1000).rounded()))
                framesWritten += 1
                if held.isRepeating { heldFrames.add(1, ordering: .relaxed) }
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
        if framesWritten == 0 {
            // A file without a frame would sit in the library as an unplayable entry.
            unlink(writer.destination.url)
            reason = (reason.map { "\($0); " } ?? "") + Self.noFramesReason
        }
        bytes.store(Self.fileSize(writer.destination.url) ?? 0, ordering: .relaxed)
        guard let reason else { return nil }
        failure.withLock { $0 = reason }
        feed.close()
        feed.discardQueued()
        return reason
    }

    static let noFramesReason = "no frame was recorded (the source was offline or gave no frame), so no file was kept"

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
