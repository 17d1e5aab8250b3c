import FilterKit
import Foundation
import Synchronization
import Telemetry

/// Records the session's frames to H.264 in fragmented MP4 files named by their start time
/// (`2026-11-30T10-15-02Z.mp4`) in the recordings folder, one recording at a time.
///
/// The processing thread hands every frame to ``record(_:filtered:)``, which copies it and
/// returns at once; encoding and writing run on the recording's own thread (see
/// ``RecordingTake``). A recording stops on ``stop()`` or by itself — size limit, free space
/// under the minimum, a write error — and then `onEnded` reports why. Thread-safe.
public final class Recorder: Sendable {
    public let options: RecorderOptions
    /// Frames left out of recordings because the encoder fell behind, over all recordings.
    public let framesDropped = Counter()
    private let width: Int
    private let height: Int
    private let frameRate: Double
    private let onEnded: @Sendable (RecordingStatus) -> Void

    private struct State {
        var current: RecordingTake?
        /// A take that stopped by itself; joined by the next start or stop.
        var ended: RecordingTake?
        var last = RecordingStatus()
    }
    private let state = Mutex(State())
    /// What `record` should be given: 0 nothing, 1 filtered frames, 2 source frames.
    private let tap = Atomic<Int>(0)

    /// Set by `share` before the first recording.
    nonisolated(unsafe) private var sharedEncode: (any SharedEncode)?
    /// Set by `recordSound` before the first recording.
    nonisolated(unsafe) private var sound: AudioPipeline?

    /// Frames of `width × height` at about `frameRate`; `onEnded` is called (on the encoder
    /// thread) when a recording stops by itself.
    public init(width: Int, height: Int, frameRate: Double?, options: RecorderOptions,
                onEnded: @escaping @Sendable (RecordingStatus) -> Void = { _ in }) {
        self.width = width
        self.height = height
        self.frameRate = frameRate ?? 30
        self.options = options
        self.onEnded = onEnded
    }

    deinit { _ = stop() }

    /// Filtered recordings are `encode`'s access units from now on (`--record-rendition`): one
    /// encode for the page and the file. Recordings of the source keep an encode of their own.
    /// Before the first recording.
    public func share(_ encode: any SharedEncode) {
        sharedEncode = encode
    }

    /// Recordings keep the sound from now on: each has an AAC track, the AAC of `pipeline` while a
    /// recording runs — silence while the source has none, so that a switch to a source with sound
    /// during a recording keeps that sound (an MP4's tracks are fixed at its start), as a
    /// published stream does. Before the first recording.
    public func recordSound(from pipeline: AudioPipeline) {
        sound = pipeline
    }

    /// The sound for a new take, when recordings keep it (and this FFmpeg encodes AAC).
    private func takeSound() -> SoundTrack? {
        sound.flatMap { SoundTrack(of: $0, frameRate: frameRate) }
    }

    /// Starts recording the filtered (or the source's) frames into a new file, at `size` (the
    /// session's now; nil: the size the recorder was made for) — which it keeps: frames of another
    /// size are fitted into it; a filtered one names `filter` (what it is filtered with) in its
    /// metadata. Throws when a recording is running, the folder cannot be written, free space is
    /// short or no encoder opens.
    @discardableResult
    public func start(filtered: Bool, filter: String? = nil, size: (width: Int, height: Int)? = nil) throws(MediaError)
        -> RecordingStatus {
        let (width, height) = size ?? (self.width, self.height)
        joinEnded()
        let directory = options.directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw .recordFailed(path: directory, reason: "cannot create the recordings folder")
        }
        if let shortage = RecordingTake.spaceShortage(in: directory, minimum: options.minimumFreeBytes) {
            throw .recordFailed(path: directory, reason: shortage)
        }
        return try state.withLock { (state) throws(MediaError) -> RecordingStatus in
            if let current = state.current {
                throw .recordFailed(path: current.name, reason: "a recording is already running")
            }
            let name = Self.newName(in: directory)
            let ended: @Sendable (RecordingTake, String) -> Void = { [weak self] take, _ in self?.takeEnded(take) }
            let take: RecordingTake
            if filtered, let sharedEncode {
                take = RecordingTake(sharing: sharedEncode, path: directory + "/" + name, name: name, frameRate: frameRate,
                                     options: options, filter: filter, audio: takeSound(), droppedTotal: framesDropped,
                                     ended: ended)
            } else {
                let audio = takeSound()
                let writer = try VideoWriter.fragmentedMP4(path: directory + "/" + name, width: width, height: height,
                                                           frameRate: frameRate, preset: options.preset, threads: options.threads,
                                                           audio: audio != nil, filter: filtered ? filter : nil)
                take = RecordingTake(writer: writer, name: name, filtered: filtered, width: width, height: height,
                                     frameRate: frameRate, options: options, audio: audio, droppedTotal: framesDropped,
                                     ended: ended)
                // A shared take takes no frames: the rendition has them.
                tap.store(filtered ? 1 : 2, ordering: .releasing)
            }
            state.current = take
            return take.status
        }
    }

    /// Stops the recording, writes what is queued and closes the file; its final status, or
    /// nil when nothing was recording.
    @discardableResult
    public func stop() -> RecordingStatus? {
        joinEnded()
        let take = state.withLock { state -> RecordingTake? in
            defer { state.current = nil }
            return state.current
        }
        guard let take else { return nil }
        tap.store(0, ordering: .releasing)
        take.finish()
        let status = take.status
        state.withLock { $0.last = status }
        return status
    }

    /// Processing thread: records `frame` if a recording wants this kind (filtered or not).
    /// Copies it and returns at once.
    public func record(_ frame: Frame, filtered: Bool) {
        guard wants(filtered: filtered) else { return }
        state.withLock { $0.current }?.offer(frame)
    }

    /// Whether a recording wants frames of this kind (cheap: checked for every frame).
    public func wants(filtered: Bool) -> Bool {
        let tap = tap.load(ordering: .acquiring)
        return tap == (filtered ? 1 : 2)
    }

    /// The current recording, or how the last one ended.
    public var status: RecordingStatus {
        state.withLock { state in
            guard let current = state.current else { return state.last }
            var status = current.status
            status.isActive = true
            return status
        }
    }

    private func takeEnded(_ take: RecordingTake) {
        let ended = state.withLock { state -> Bool in
            guard state.current === take else { return false }
            state.current = nil
            state.ended = take
            state.last = take.status
            return true
        }
        guard ended else { return }
        tap.store(0, ordering: .releasing)
        onEnded(take.status)
    }

    private func joinEnded() {
        state.withLock { state -> RecordingTake? in
            defer { state.ended = nil }
            return state.ended
        }?.finish()
    }

    /// `2026-11-30T10-15-02Z.mp4` (UTC), with `-2`, `-3` … when that name is taken.
    static func newName(in directory: String, now: Date = Date()) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH-mm-ss'Z'"
        let stem = formatter.string(from: now)
        var name = stem + ".mp4"
        var counter = 2
        while FileManager.default.fileExists(atPath: directory + "/" + name) {
            name = "\(stem)-\(counter).mp4"
            counter += 1
        }
        return name
    }
}
