import FilterKit
import Foundation
import Synchronization
import Telemetry

#if canImport(Glibc)
import Glibc
#endif

/// One recording in progress: its ``EncoderFeed`` (frame queue and encoder thread) and counters —
/// or, for a recording that shares a rendition's encode, its ``SharedEncodeInput`` (the
/// rendition's access units and the thread that writes them).
final class RecordingTake: Sendable {
    let name: String
    let filtered: Bool
    let encoderName: String
    private let bytes = Atomic<Int64>(0)
    private let heldFrames = Atomic<Int>(0)
    /// Why the take stopped by itself, once it has.
    private let failure = Mutex<String?>(nil)
    private let started = ContinuousClock.now
    nonisolated(unsafe) private var feed: EncoderFeed?
    nonisolated(unsafe) private var shared: SharedEncodeInput?
    /// The sound, when the writer has an audio stream; attached while the take runs.
    private let audio: SoundTrack?

    /// Starts the encoder thread on `writer`, which moves to it. `ended` is called on that thread
    /// when the take stops by itself (limit, disk space, write error), with the reason. While no
    /// frame comes the last one is written again at `frameRate` (see ``HeldPicture``). With
    /// `audio` (the writer then has an audio stream), its AAC is written with the pictures.
    init(writer: VideoWriter, name: String, filtered: Bool, width: Int, height: Int, frameRate: Double,
         options: RecorderOptions, audio: SoundTrack? = nil, droppedTotal: Counter,
         ended: @escaping @Sendable (RecordingTake, String) -> Void) {
        self.name = name
        self.filtered = filtered
        encoderName = writer.encoderName
        self.audio = audio
        audio?.attach()
        nonisolated(unsafe) let writer = writer
        feed = EncoderFeed(name: "record", width: width, height: height,
                           capacity: options.queueCapacity(width: width, height: height, frameRate: frameRate),
                           droppedTotal: droppedTotal) { [self] feed in
            let reason = encode(writer, feed, HeldPicture(frameRate: frameRate), options)
            audio?.detach()
            if let reason { ended(self, reason) }
        }
    }

    /// Starts the thread that writes `encode`'s access units to a new file at `path` (from the
    /// next keyframe: the file is made once it comes). While no unit comes (paused) the picture
    /// shown is asked for again every second: the file lasts as long as the recording, at one
    /// picture a second while still. With `audio`, its AAC is written with the pictures.
    init(sharing encode: any SharedEncode, path: String, name: String, frameRate: Double, options: RecorderOptions,
         filter: String? = nil, audio: SoundTrack? = nil, droppedTotal: Counter,
         ended: @escaping @Sendable (RecordingTake, String) -> Void) {
        self.name = name
        filtered = true
        encoderName = "\(encode.encoderName) (shared: \(encode.name))"
        let input = SharedEncodeInput(encode, frameRate: frameRate, capacity: (options.queueCapacity ?? 12) * 5, sound: audio,
                                      droppedTotal: droppedTotal) { false }
        shared = input
        self.audio = audio
        audio?.attach()
        input.start { [self] in
            let reason = copy(input, to: VideoWriter.fragmentedMP4(path: path, fragmentAtKeyframes: false, filter: filter), options)
            audio?.detach()
            if let reason { ended(self, reason) }
        }
    }

    /// Processing thread: queues a copy of `frame` with its source time and restart flag; the
    /// encoder thread puts it on the file's timeline (``OutputTimeline``).
    func offer(_ frame: Frame) {
        guard let feed else { return }
        feed.offer(frame, at: frame.time, marked: frame.isDiscontinuity)
    }

    /// Ends the take: the frames already queued are written (a shared take's units: the next
    /// stops it), then the file is closed. Waits.
    func finish() {
        feed?.finish()
        shared?.finish()
    }

    var status: RecordingStatus {
        var status = RecordingStatus()
        status.name = name
        status.filtered = filtered
        status.elapsed = started.duration(to: .now).seconds
        status.bytes = bytes.load(ordering: .relaxed)
        status.droppedFrames = feed?.droppedFrames ?? shared?.droppedUnits ?? 0
        status.heldFrames = heldFrames.load(ordering: .relaxed)
        status.encoder = encoderName
        status.error = failure.withLock { $0 }
        return status
    }

    /// The encoder thread: returns why it stopped by itself, or nil when finished on request
    /// with frames in the file. A take that wrote no frame leaves no file: that is the reason.
    private func encode(_ writer: VideoWriter, _ feed: EncoderFeed, _ held: HeldPicture,
                        _ options: RecorderOptions) -> String? {
        var limits = Limits(options)
        var framesWritten = 0
        var lastPicture: Double?
        var held = held
        var timeline = OutputTimeline(frameRate: 1 / held.interval.seconds)
        defer { held.release(to: feed) }
        var reason: String?
        do throws(MediaError) {
            while reason == nil, let frame = held.next(from: feed) {
                let time = timeline.stamp(frame, repeated: held.isRepeating, wall: feed.elapsed, sound: audio)
                try writer.write(frame, at: Int64((time * 1000).rounded()))
                try audio?.write(to: writer, pictureAt: time)
                lastPicture = time
                framesWritten += 1
                if held.isRepeating { heldFrames.add(1, ordering: .relaxed) }
                reason = limits.check(written: noteBytes(writer))
            }
            if let lastPicture { try audio?.finish(to: writer, lastPictureAt: lastPicture) }
        } catch {
            reason = error.description
        }
        reason = conclude(writer, framesWritten: framesWritten, reason)
        if reason != nil {
            feed.close()
            feed.discardQueued()
        }
        return reason
    }

    /// The shared take's thread: the file once the rendition's keyframe comes, then every unit.
    private func copy(_ input: SharedEncodeInput, to destination: VideoWriter.Destination,
                      _ options: RecorderOptions) -> String? {
        let writer: VideoWriter
        do throws(MediaError) {
            writer = try input.connect(destination, interruption: Interruption())
        } catch {
            input.close()
            return record(error.description + "; " + Self.noFramesReason)
        }
        var limits = Limits(options)
        var framesWritten = 1
        var reason: String?
        do throws(MediaError) {
            while reason == nil, !input.isFinishing {
                guard try input.writeNext(to: writer, keepAlive: .seconds(1)) else { continue }
                framesWritten += 1
                reason = limits.check(written: noteBytes(writer))
            }
            try input.finishSound(on: writer)
        } catch {
            reason = error.description
        }
        input.close()
        return conclude(writer, framesWritten: framesWritten, reason)
    }

    /// The file is finished; one without a frame is removed (it would sit in the library as an
    /// unplayable entry). Returns why the take stopped by itself, noted in its status.
    private func conclude(_ writer: VideoWriter, framesWritten: Int, _ stopReason: String?) -> String? {
        var reason = stopReason
        do throws(MediaError) {
            try writer.finish()
        } catch {
            reason = reason ?? error.description
        }
        if framesWritten == 0 {
            unlink(writer.destination.url)
            reason = (reason.map { "\($0); " } ?? "") + Self.noFramesReason
        }
        bytes.store(Self.fileSize(writer.destination.url) ?? 0, ordering: .relaxed)
        return reason.map(record)
    }

    /// The bytes in the file so far, noted for the status.
    private func noteBytes(_ writer: VideoWriter) -> Int64 {
        let written = writer.bytesWritten
        bytes.store(written, ordering: .relaxed)
        return written
    }

    /// Notes `reason` as the take's failure; returns it.
    private func record(_ reason: String) -> String {
        failure.withLock { $0 = reason }
        return reason
    }

    /// The size limit and the free-space minimum, looked at after each frame written.
    private struct Limits {
        let options: RecorderOptions
        var lastSpaceCheck = ContinuousClock.now

        init(_ options: RecorderOptions) { self.options = options }

        /// Why the take must stop now that `written` bytes are in the file, if it must.
        mutating func check(written: Int64) -> String? {
            if let limit = options.maximumBytes, written >= limit {
                return "the recording reached its size limit of \(RecordingTake.megabytes(limit)) MB (--max-record-size)"
            }
            guard lastSpaceCheck.duration(to: .now) >= .seconds(1) else { return nil }
            lastSpaceCheck = .now
            return RecordingTake.spaceShortage(in: options.directory, minimum: options.minimumFreeBytes)
        }
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
