import CastProtocol
import Foundation

/// `GET /api/media`: one folder of the media folder, what a user could open in it. Called on the
/// network thread: bounded in names read, entries listed and files probed.
extension MediaLibrary {
    /// Most names one listing reads from a folder; a folder with more is listed from the first
    /// ones the file system gives (`truncated`), so that a huge folder never holds the thread long.
    public static let scanLimit = 20 * listingLimit

    /// Files a media folder holds beside its videos, which `open` would refuse or show as a
    /// single still: subtitles, pictures (posters, thumbnails), audio, text and metadata,
    /// archives. Only these obvious ones are left out — a list of video extensions instead would
    /// hide files FFmpeg plays under unusual names (`.nut`, `.h264`, `.y4m`, no extension…).
    static let notVideoExtensions: Set<String> = [
        "srt", "vtt", "ass", "ssa", "sub", "idx", "sup",
        "jpg", "jpeg", "png", "bmp", "tif", "tiff", "webp", "heic", "svg", "ico",
        "mp3", "flac", "wav", "aac", "m4a", "opus", "oga", "wma", "aif", "aiff", "mid", "m3u", "pls", "cue",
        "txt", "md", "nfo", "json", "xml", "html", "htm", "pdf", "log", "csv", "ini", "yml", "yaml", "db",
        "zip", "rar", "7z", "tar", "gz", "bz2", "xz", "zst", "iso", "torrent", "exe",
    ]

    /// The folders and files of `folder` (relative to the media folder, `""` its root) that a
    /// user could browse or open: no hidden names, no symlinks out, no sockets or devices, no
    /// obvious non-video (``notVideoExtensions``). Folders first, then files, by name; at most
    /// ``listingLimit``, with the durations of at most ``probesPerListing`` files not read before.
    /// Throws `not_found` without a media folder, for a folder that is missing or a file, and
    /// `forbidden` for a name `open` would refuse or one that leads out of the media folder.
    public func listMedia(folder relative: String) throws(ProtocolError) -> MediaListing {
        guard let media else {
            throw ProtocolError(code: .notFound, message: "this server has no media folder (--media-dir)")
        }
        let (folder, path) = try Self.folder(relative, in: media)
        var (entries, truncated) = Self.scan(path, as: folder, in: media)
        entries.sort { ($0.entry.kind == .folder ? 0 : 1, $0.caseless, $0.entry.name)
            < ($1.entry.kind == .folder ? 0 : 1, $1.caseless, $1.entry.name) }
        truncated = truncated || entries.count > Self.listingLimit
        let listed = entries.prefix(Self.listingLimit)
        let files = listed.compactMap { $0.file }
        var durations = mediaDurations.durations(of: files, probes: Self.probesPerListing).makeIterator()
        return MediaListing(folder: folder, entries: listed.map { item in
            var entry = item.entry
            if item.file != nil { entry.duration = durations.next() ?? nil }
            return entry
        }, truncated: truncated)
    }

    /// `relative` with its components joined by `/`, and the real path of that folder.
    private static func folder(_ relative: String, in media: ContainedFolder) throws(ProtocolError) -> (String, String) {
        let shownFolder = shown(relative)
        let folder = try components(of: relative, naming: "name a folder of the media folder").joined(separator: "/")
        switch media.resolve(folder) {
        case .folder(let path):
            return (folder, path)
        case .outside:
            throw ProtocolError(code: .forbidden, message: "\(shownFolder): it leads out of the media folder")
        case .file:
            throw ProtocolError(code: .notFound, message: "\(shownFolder): not a folder")
        case .missing:
            throw ProtocolError(code: .notFound, message: "\(shownFolder): no such folder")
        }
    }

    /// An entry of a listing, its name lowercased (to sort by) and, for a file, what its
    /// duration is read and cached by.
    private typealias Scanned = (entry: MediaListing.Entry, caseless: String, file: DurationCache.File?)

    /// What `path` (the real path of `folder`) holds that a user may browse or open, unsorted;
    /// true when names were left unread (over ``scanLimit``).
    private static func scan(_ path: String, as folder: String, in media: ContainedFolder) -> ([Scanned], Bool) {
        guard let directory = opendir(path) else { return ([], false) }
        defer { closedir(directory) }
        var found: [Scanned] = []
        var read = 0
        while let item = readdir(directory) {
            read += 1
            if read > scanLimit { return (found, true) }
            let name = withUnsafeBytes(of: item.pointee.d_name) { bytes in
                String(validatingCString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            // Names that are not UTF-8, hidden or not nameable in `open` could not be opened.
            guard let name, ContainedFolder.components(of: name)?.count == 1 else { continue }
            let relative = folder.isEmpty ? name : folder + "/" + name
            if let scanned = entry(name, at: path + "/" + name, relative: relative, in: media) { found.append(scanned) }
        }
        return (found, false)
    }

    /// The entry `name` is (at `path`, `relative` in the media folder), or nil when a user could
    /// not open it: a symlink is what it leads to, when that is inside the media folder.
    private static func entry(_ name: String, at path: String, relative: String, in media: ContainedFolder) -> Scanned? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        var real = path
        if (info.st_mode & S_IFMT) == S_IFLNK {
            switch media.resolve(relative) {
            case .folder(let target), .file(let target):
                guard stat(target, &info) == 0 else { return nil }
                real = target
            case .missing, .outside:
                return nil
            }
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            return (MediaListing.Entry(name: name, kind: .folder), name.lowercased(), nil)
        case S_IFREG:
            let caseless = name.lowercased()
            if let dot = caseless.lastIndex(of: "."), notVideoExtensions.contains(String(caseless[caseless.index(after: dot)...])) {
                return nil
            }
            let version = MediaLibrary.version(info)
            return (MediaListing.Entry(name: name, kind: .file, size: version.size), caseless,
                    DurationCache.File(key: relative, path: real, version: version))
        default:
            return nil
        }
    }
}
