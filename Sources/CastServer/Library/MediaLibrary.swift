import CastProtocol
import Foundation
import MediaKit

/// The files clients may open, download and delete: the recordings (`recordings/NAME`), with
/// `--uploads` the uploaded files (`uploads/NAME`) and, with `--media-dir`, the media folder
/// (`media/PATH`, read-only). The one resolver behind
/// `open`, `delete` and `GET /recordings/NAME`: no absolute paths, no `..` or hidden names, no
/// symlinks out, no URLs — `forbidden` otherwise.
public final class MediaLibrary: Sendable {
    public let recordings: ContainedFolder
    public let media: ContainedFolder?
    public let uploads: UploadFolder?
    /// Most files `GET /api/recordings` and `GET /api/uploads` list (the newest), and most entries
    /// `GET /api/media` lists of one folder.
    public static let listingLimit = 1000
    /// Most files whose duration one listing reads (each is opened): the rest say `null` until
    /// a later listing, so that a folder of many new files never holds the network thread long.
    public static let probesPerListing = 32
    /// Durations already read: of the recordings, of the uploads, and of the media folder's files
    /// (by their paths in it, from every folder listed; a few listings' worth).
    private let recordingDurations = DurationCache(capacity: listingLimit)
    private let uploadDurations = DurationCache(capacity: listingLimit)
    let mediaDurations = DurationCache(capacity: 4 * listingLimit)
    /// The recordings' sidecars already read (their looks).
    private let recordingLooks = RecordingLooksCache()

    public enum Area: Sendable, Equatable {
        case recordings
        case media
        case uploads
    }

    /// The recordings folder (and `uploadsPath`'s, see ``UploadFolder/init(path:)``) is made when
    /// first written; fails when one is there and is not a folder, or when `mediaPath` is given and
    /// is not a folder.
    public init(recordingsPath: String, mediaPath: String?, uploadsPath: String? = nil) throws {
        recordings = try ContainedFolder(toBeCreated: recordingsPath)
        media = try mediaPath.map { path throws(ContainedFolderError) in try ContainedFolder(path) }
        uploads = try uploadsPath.map { try UploadFolder(path: $0) }
    }

    /// `reference`'s path components, or the refusal of an absolute path or of one that names
    /// what ``ContainedFolder`` never resolves ('..', hidden names …); `naming` tells, after an
    /// absolute path's refusal, what to name instead. The refusals of `open` and of a listing alike.
    static func components(of reference: String, naming: String) throws(ProtocolError) -> [Substring] {
        func refuse(_ why: String) -> ProtocolError {
            ProtocolError(code: .forbidden, message: "\(shown(reference)): \(why)")
        }
        if reference.hasPrefix("/") || reference.hasPrefix("~") { throw refuse("absolute paths are not accepted; \(naming)") }
        guard let components = ContainedFolder.components(of: reference) else {
            throw refuse("'..', '.', hidden names, backslashes and NUL are not accepted")
        }
        return components
    }

    /// The real path of the file `reference` names, and its area.
    public func resolve(_ reference: String) throws(ProtocolError) -> (path: String, area: Area) {
        func refuse(_ why: String) -> ProtocolError {
            ProtocolError(code: .forbidden, message: "\(Self.shown(reference)): \(why)")
        }
        if reference.contains("://") || reference.wholeMatch(of: /[A-Za-z][A-Za-z0-9+.\-]*:.*/) != nil {
            throw refuse("URLs are not accepted; name a file as recordings/NAME or media/PATH")
        }
        let components = try Self.components(of: reference, naming: "name a file as recordings/NAME or media/PATH")
        guard let first = components.first, components.count >= 2 else {
            throw refuse("name a file as recordings/NAME or media/PATH")
        }
        let relative = components.dropFirst().joined(separator: "/")
        let area: Area
        let folder: ContainedFolder
        switch first {
        case "recordings" where components.count == 2:
            (area, folder) = (.recordings, recordings)
        case "uploads" where components.count == 2:
            guard let uploads else { throw refuse("this server takes no uploads (--uploads)") }
            (area, folder) = (.uploads, uploads.folder)
        case "recordings", "uploads":
            throw refuse("the \(first) folder has no subfolders")
        case "media":
            guard let media else { throw refuse("this server has no media folder (--media-dir)") }
            (area, folder) = (.media, media)
        default:
            throw refuse("only recordings/NAME, uploads/NAME and media/PATH can be named")
        }
        switch folder.resolve(relative) {
        case .file(let path):
            return (path, area)
        case .outside:
            throw refuse("it leads out of the \(first) folder")
        case .folder, .missing:
            throw ProtocolError(code: .notFound, message: "\(Self.shown(reference)): no such file")
        }
    }

    /// Deletes the recording or upload `reference` names (`recordings/NAME`, `uploads/NAME`);
    /// the media folder is read-only. Returns the file's real path.
    @discardableResult
    public func delete(_ reference: String) throws(ProtocolError) -> String {
        let (path, area) = try resolve(reference)
        guard area != .media else {
            throw ProtocolError(code: .forbidden, message: "\(Self.shown(reference)): the media folder is read-only")
        }
        guard unlink(path) == 0 else {
            throw ProtocolError(code: .notFound, message: "\(Self.shown(reference)): cannot delete (\(String(cString: strerror(errno))))")
        }
        // A recording's looks go with it (most have none).
        if area == .recordings { unlink(path + RecordingLooks.sidecarSuffix) }
        return path
    }

    /// The recordings, newest first (at most ``listingLimit``), each with the looks its sidecar
    /// lists (``RecordingLooks``) when it has one.
    public func listRecordings() -> [RecordingEntry] {
        let entries = list(in: recordings.root, cachedIn: recordingDurations) { $0.lowercased().hasSuffix(".mp4") }
        let looks = recordingLooks.looks(of: entries.map(\.name), in: recordings.root, reads: Self.probesPerListing)
        return zip(entries, looks).map { entry, looks in
            var entry = entry
            entry.looks = looks?.looks
            entry.looksTruncated = looks?.truncated
            entry.droppedFrames = looks?.droppedFrames
            return entry
        }
    }

    /// The uploaded files, newest first (at most ``listingLimit``); none without `--uploads`.
    public func listUploads() -> [RecordingEntry] {
        guard let uploads else { return [] }
        return list(in: uploads.folder.root, cachedIn: uploadDurations) { _ in true }
    }

    /// The regular files of `root` that `include` takes (hidden ones never), newest first (at
    /// most ``listingLimit``), with their durations (cached in `cache`).
    private func list(in root: String, cachedIn cache: DurationCache, including include: (String) -> Bool) -> [RecordingEntry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        var entries: [(entry: RecordingEntry, version: DurationCache.Version)] = []
        for name in names where !name.hasPrefix(".") && include(name) {
            var info = stat()
            guard lstat(root + "/" + name, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            let version = Self.version(info)
            entries.append((RecordingEntry(name: name, duration: nil, size: version.size,
                                           created: Self.iso8601(version.modified)), version))
        }
        entries.sort { ($0.version.modified, $0.entry.name) > ($1.version.modified, $1.entry.name) }
        let listed = entries.prefix(Self.listingLimit)
        let summaries = cache.summaries(of: listed.map {
            DurationCache.File(key: $0.entry.name, path: root + "/" + $0.entry.name, version: $0.version)
        }, probes: Self.probesPerListing)
        return zip(listed, summaries).map { item, summary in
            var entry = item.entry
            entry.duration = summary.duration
            entry.filter = summary.recordedFilter
            return entry
        }
    }

    /// The size and modification time of a file `stat` described.
    static func version(_ info: stat) -> DurationCache.Version {
        DurationCache.Version(size: Int64(info.st_size),
                              modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// A reference as error messages show it: cut when long.
    static func shown(_ reference: String) -> String {
        reference.count > 80 ? "'\(reference.prefix(77))…'" : "'\(reference)'"
    }

    private static func iso8601(_ seconds: Double) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}
