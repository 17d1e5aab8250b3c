import CastProtocol
import Foundation
import Logging

/// `--comments DIR` (default `DATA/comments`): every source's comments, one `KEY.json` file per
/// source (``SourceKey``), made when first written, each written whole to a temporary file and
/// renamed over the old one (``AtomicFile``): a crash leaves the old list or the new one, never
/// half of one. A file is read the first time its source is asked about and kept in memory; at
/// most ``CommentLimits/maximumPerSource`` comments each.
///
/// ```
/// {"source": "media/a.mp4", "comments": [{"id": "c1f…", "author": {"id": "p1", "name": "Ana"}, …}]}
/// ```
///
/// Service thread only (the core's).
final class CommentFolder {
    static let temporaryPrefix = ".comments-"

    let path: String
    private var lists: [String: [Comment]] = [:]
    /// Sources whose file could not be read: nothing is written over it.
    private var unreadable: [String: String] = [:]
    /// Each file's key, with the size and modification time it was read at.
    private var keys: [String: (stamp: [Int], key: String)] = [:]

    init(path: String) {
        self.path = path
        // Leftovers of a crash between writing and renaming.
        _ = AtomicFile.prepare(path, temporaryPrefix: Self.temporaryPrefix, suffix: ".json")
    }

    /// The ``SourceKey`` of the file at `path` (read again only when its size or time changed).
    func key(ofFile path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let stamp = [Int(info.st_size), info.st_mtim.tv_sec, info.st_mtim.tv_nsec, Int(info.st_ino)]
        if let known = keys[path], known.stamp == stamp { return known.key }
        guard let key = SourceKey.ofFile(path) else { return nil }
        if keys.count >= 1_000 { keys.removeAll() }  // bounded: a server plays far fewer files between restarts
        keys[path] = (stamp, key)
        return key
    }

    private struct File: Codable {
        var source: String
        var comments: [Comment]
    }

    /// The comments of the source `key`, oldest first.
    func comments(of key: String) -> [Comment] {
        if let list = lists[key] { return list }
        let file = path + "/" + key + ".json"
        guard let data = FileManager.default.contents(atPath: file) else {
            lists[key] = []
            return []
        }
        do {
            let list = try JSONDecoder().decode(File.self, from: data).comments
            lists[key] = list
            return list
        } catch {
            Log.warning("comments file cannot be read: its source's comments are not changed", ["file": .string(file), "error": .string("\(error)")])
            unreadable[key] = file
            lists[key] = []
            return []
        }
    }

    /// Replaces the comments of source `key` (called `source`, for people reading the file) by
    /// `list`, on disk first: nil, or why it failed (then nothing changed).
    func store(_ list: [Comment], of key: String, source: String) -> String? {
        if let file = unreadable[key] { return "the comments file \(file) cannot be read; move it away first" }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(File(source: source, comments: list)) else { return "the comments do not encode" }
        if let problem = AtomicFile.write(Array(data) + [0x0A], folder: path, name: key + ".json",
                                          temporaryPrefix: Self.temporaryPrefix, replacing: true) {
            return problem
        }
        lists[key] = list
        return nil
    }

    /// Forgets the comments of source `key` (a recording deleted): its file goes.
    func remove(_ key: String) {
        lists[key] = nil
        unreadable[key] = nil
        unlink(path + "/" + key + ".json")
    }
}
