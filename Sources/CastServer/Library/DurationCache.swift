import MediaKit
import Synchronization

/// The durations of the files a listing shows (`GET /api/recordings`, `GET /api/media`), read
/// once per file version: a file is opened again only when its size or modification time
/// changed. Bounded twice: a listing opens at most `probes` files (the rest say nil until a later
/// listing), and the cache keeps at most `capacity` files (over that, only the last listing's).
/// Safe from any thread; a listing holds the lock while it probes, so listings take turns.
final class DurationCache: Sendable {
    /// What a file looked like when its duration was read.
    struct Version: Equatable, Sendable {
        var size: Int64
        var modified: Double
    }

    /// One file of a listing: the key it is cached under, where it is, and its version now.
    struct File {
        var key: String
        var path: String
        var version: Version
    }

    private let known = Mutex<[String: (version: Version, summary: MediaProbe.Summary)]>([:])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The duration of each of `files`, in order: the cached one, or read now for the first
    /// `probes` files that have none; nil for the others and for files that cannot be read.
    func durations(of files: [File], probes: Int) -> [Double?] {
        summaries(of: files, probes: probes).map(\.duration)
    }

    /// What a listing shows of each of `files` (duration, a recording's filter), as ``durations(of:probes:)``.
    func summaries(of files: [File], probes: Int) -> [MediaProbe.Summary] {
        known.withLock { cache in
            var listed: [String: (version: Version, summary: MediaProbe.Summary)] = [:]
            var probed = 0
            let summaries = files.map { file -> MediaProbe.Summary in
                if let cached = cache[file.key], cached.version == file.version {
                    listed[file.key] = cached
                    return cached.summary
                }
                guard probed < probes else { return MediaProbe.Summary() }
                probed += 1
                let summary = MediaProbe.summary(of: file.path)
                listed[file.key] = (file.version, summary)
                cache[file.key] = (file.version, summary)
                return summary
            }
            if cache.count > capacity { cache = listed }
            return summaries
        }
    }
}
