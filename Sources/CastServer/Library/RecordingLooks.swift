import CastProtocol
import FilterKit
import Foundation
import Synchronization

/// The looks a filtered recording was made with: the program chain at its start (`at` 0) and
/// every change, `at` seconds from the take's start. Kept beside the recording as
/// `NAME.mp4.json` (``sidecarSuffix``) and given by `GET /api/recordings` as `looks`.
public struct RecordingLooks: Codable, Sendable, Equatable {
    /// One chain and when it went on air.
    public struct Look: Codable, Sendable, Equatable {
        /// Seconds from the take's start (two decimals).
        public var at: Double
        public var chain: [Link]
    }

    /// A link as `state.chain` gives it: `{"name", "params", "choices"?}`.
    public struct Link: Codable, Sendable, Equatable {
        public var name: String
        public var params: [String: Double]
        public var choices: [String: String]?

        init(_ settings: FilterSettings) {
            name = settings.name
            params = settings.values
            choices = settings.choices.isEmpty ? nil : settings.choices
        }
    }

    public var looks: [Look]
    /// True when changes after the ``RecordingLookLog/changeLimit``th were left out.
    public var truncated: Bool? = nil
    /// Frames the viewers got that the recording left out (its encoder fell behind); absent when none.
    public var droppedFrames: Int? = nil
    /// Who changed what on the channel while it recorded (as `GET /api/activity` gives it, a
    /// burst's entry with its latest value); absent when nobody did.
    public var activity: [ActivityEntry]? = nil

    /// What is appended to a recording's file name to name its sidecar.
    public static let sidecarSuffix = ".json"
    /// Largest sidecar a listing reads; a larger one (not the server's) is ignored.
    static let readLimit = 4 << 20

    /// The sidecar at `path`, or nil when there is none, it is too large or it is not one.
    static func read(_ path: String) -> RecordingLooks? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= readLimit,
              let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(RecordingLooks.self, from: data)
    }
}

/// The running recording's looks, kept in memory while it runs and written as its sidecar when it
/// finishes. Thread-safe: `note` comes from the command thread, `finish` from the command thread
/// (stop) or the recorder's (a take that ended by itself), whichever is first.
public final class RecordingLookLog: Sendable {
    /// Most changes kept after the start's chain; later ones only set `truncated`.
    public static let changeLimit = 1000

    private struct Running {
        var folder: String
        var name: String
        var started: ContinuousClock.Instant
        var looks: RecordingLooks
    }
    private let running = Mutex<Running?>(nil)

    public init() {}

    /// A take `name` in `folder` started with `chain` now (replacing any log not finished).
    func start(_ name: String, in folder: String, chain: FilterChain) {
        let look = RecordingLooks.Look(at: 0, chain: chain.links.map(RecordingLooks.Link.init))
        running.withLock { $0 = Running(folder: folder, name: name, started: .now, looks: RecordingLooks(looks: [look])) }
    }

    /// The program chain changed to `chain`: noted with its time while a take runs.
    func note(_ chain: FilterChain) {
        running.withLock { running in
            guard running != nil else { return }
            guard running!.looks.looks.count <= Self.changeLimit else {
                running!.looks.truncated = true
                return
            }
            let elapsed = running!.started.duration(to: .now)
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            running!.looks.looks.append(RecordingLooks.Look(at: (seconds * 100).rounded() / 100,
                                                            chain: chain.links.map(RecordingLooks.Link.init)))
        }
    }

    /// A change was made (`entry`, or the latest value of a burst's entry): kept while a take
    /// runs, as many as ``changeLimit`` (then `truncated`).
    func note(_ entry: ActivityEntry) {
        running.withLock { running in
            guard running != nil else { return }
            var activity = running!.looks.activity ?? []
            if let index = activity.lastIndex(where: { $0.id == entry.id }) {
                activity[index] = entry
            } else if activity.count < Self.changeLimit {
                activity.append(entry)
            } else {
                running!.looks.truncated = true
                return
            }
            running!.looks.activity = activity
        }
    }

    /// The take ended (`name`: only if it is that one, for a take that ended by itself while the
    /// next may be starting), having left out `droppedFrames`: its sidecar is written (atomically)
    /// when its recording was kept. Returns nil, or what went wrong; a second call does nothing.
    @discardableResult
    public func finish(name: String? = nil, droppedFrames: Int) -> String? {
        guard var ended = running.withLock({ running -> Running? in
            guard let current = running, name == nil || current.name == name else { return nil }
            running = nil
            return current
        }) else { return nil }
        ended.looks.droppedFrames = droppedFrames > 0 ? droppedFrames : nil
        guard FileManager.default.fileExists(atPath: ended.folder + "/" + ended.name) else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(ended.looks) else { return "cannot encode the looks of \(ended.name)" }
        return AtomicFile.write([UInt8](data), folder: ended.folder, name: ended.name + RecordingLooks.sidecarSuffix,
                                temporaryPrefix: ".looks-", replacing: true)
    }
}

/// The sidecars a recordings listing shows, read once per sidecar version (size and modification
/// time): at most `reads` new ones per listing (the rest show none until a later listing), at
/// most ``MediaLibrary/listingLimit`` kept. Safe from any thread; listings take turns.
final class RecordingLooksCache: Sendable {
    private let known = Mutex<[String: (version: DurationCache.Version, looks: RecordingLooks?)]>([:])

    /// The looks of each recording `names` (in `folder`), in order; nil for one without a sidecar.
    func looks(of names: [String], in folder: String, reads: Int) -> [RecordingLooks?] {
        known.withLock { cache in
            var left = reads
            let found = names.map { name -> RecordingLooks? in
                let path = folder + "/" + name + RecordingLooks.sidecarSuffix
                var info = stat()
                guard stat(path, &info) == 0 else { return nil }
                let version = MediaLibrary.version(info)
                if let cached = cache[name], cached.version == version { return cached.looks }
                guard left > 0 else { return nil }
                left -= 1
                let looks = RecordingLooks.read(path)
                cache[name] = (version, looks)
                return looks
            }
            if cache.count > MediaLibrary.listingLimit { cache = [:] }
            return found
        }
    }
}
