import CastProtocol
import Dispatch
import Foundation
import Logging

/// `--comments DIR` (default `DATA/comments`): every source's comments, one `KEY.json` file per
/// source (``SourceKey``), made when first written, each written whole to a temporary file and
/// renamed over the old one (``AtomicFile``): a crash leaves the old list or the new one, never
/// half of one. The write is done when the command is answered (a crash of the server keeps
/// it); its flush to the disk follows on a queue of its own, so that a slow disk never stalls
/// the network thread and every viewer's pictures with it (a flush took up to some hundreds of
/// milliseconds on a loaded machine; a crash of the machine in that moment may lose it). A file is read the first time its source is asked about and kept in memory; at
/// most ``CommentLimits/maximumPerSource`` comments each.
///
/// ```
/// {"source":"media/a.mp4","comments":[
/// {"at":"…","author":{"id":"p1","name":"Ana"},"chain":[…],"drawing":[…],"frame":312,"id":"c1f…",…}]}
/// ```
///
/// Service thread only (the core's).
final class CommentFolder {
    static let temporaryPrefix = ".comments-"

    let path: String
    private let flusher = DispatchQueue(label: "filtercast.comments-flush", qos: .utility)
    private var lists: [String: [Comment]] = [:]
    /// Sources whose file could not be read: nothing is written over it.
    private var unreadable: [String: String] = [:]
    /// Each comment's JSON as last written, by id: a change re-encodes the comment it changes, not
    /// the whole list (a source's thousand drawings would cost every add some milliseconds).
    private var encoded: [String: (comment: Comment, json: [UInt8])] = [:]
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
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let name = try? encoder.encode(source) else { return "the source's name does not encode" }
        var bytes = Array(#"{"source":"#.utf8) + name + Array(#","comments":["#.utf8)
        for (index, comment) in list.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "\n"))
            if let known = encoded[comment.id], known.comment == comment {
                bytes += known.json
            } else {
                guard let json = try? encoder.encode(comment) else { return "comment \(comment.id) does not encode" }
                encoded[comment.id] = (comment, Array(json))
                bytes += json
            }
        }
        bytes += Array("\n]}\n".utf8)
        if let problem = AtomicFile.write(bytes, folder: path, name: key + ".json", temporaryPrefix: Self.temporaryPrefix,
                                          replacing: true, flushing: false) {
            return problem
        }
        flusher.async { [path] in
            AtomicFile.flush(path + "/" + key + ".json")
            AtomicFile.flush(path)  // the rename
        }
        let kept = Set(list.map(\.id))
        for gone in lists[key, default: []] where !kept.contains(gone.id) { encoded[gone.id] = nil }
        lists[key] = list
        return nil
    }

    /// Forgets the comments of source `key` (a recording deleted): its file goes.
    func remove(_ key: String) {
        for comment in lists[key] ?? [] { encoded[comment.id] = nil }
        lists[key] = nil
        unreadable[key] = nil
        unlink(path + "/" + key + ".json")
    }
}
