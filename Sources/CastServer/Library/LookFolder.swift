import CastProtocol
import Foundation
import Synchronization

/// Why the looks folder could not be read, or a look not saved or deleted.
public struct LookFolderError: Error, CustomStringConvertible {
    public let description: String
}

/// `--looks DIR` (default `./looks`): the saved looks, one `NAME.json` each (``Look``), read at
/// start — a later edit by hand is read at the next start — and written atomically when a
/// controller saves one (the file replaced in one step) or removed when it deletes one. Bounded:
/// at most ``capacity`` looks, each file at most ``LookParser/maximumBytes``. Hidden files and
/// other names than `*.json` are not read. Thread-safe; the server's network thread saves and
/// deletes, so a save's write (a small file, flushed) happens there.
public final class LookFolder: Sendable {
    /// The most looks a server keeps.
    public static let capacity = 256
    /// Hidden, so that a write cut short is never read as a look.
    static let temporaryPrefix = ".look-"

    public let path: String
    private let looks: Mutex<[String: Look]>

    /// Creates the folder if missing, removes temporary files a crash left, and reads every
    /// `NAME.json`. A file that is not a look — not JSON, not one's fields, a name other than its
    /// file's, too big, one more than ``capacity`` — is an error naming the file and the problem.
    public init(path: String) throws(LookFolderError) {
        self.path = path
        let files: [String]
        switch AtomicFile.prepare(path, temporaryPrefix: Self.temporaryPrefix, suffix: ".json") {
        case .success(let names): files = names
        case .failure(let error): throw LookFolderError(description: "cannot read the looks folder \(path): \(error.reason)")
        }
        var looks: [String: Look] = [:]
        for file in files {
            guard looks.count < Self.capacity else {
                throw LookFolderError(description: "--looks: \(path) holds more than \(Self.capacity) looks, the most a server keeps")
            }
            let look = try Self.read(path + "/" + file, name: String(file.dropLast(".json".count)))
            looks[look.name] = look
        }
        self.looks = Mutex(looks)
    }

    private static func read(_ file: String, name: String) throws(LookFolderError) -> Look {
        guard Look.isValidName(name) else {
            throw LookFolderError(description: "--looks: \(file) is not a look's file: a look is NAME.json, NAME 1 to 32 of a-z 0-9 _ -")
        }
        let bytes: [UInt8]
        do {
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            guard size <= LookParser.maximumBytes else {
                throw LookFolderError(description: "--looks: \(file) is not a look: \(size) bytes, a look file is at most \(LookParser.maximumBytes)")
            }
            bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file)))
        } catch let error as LookFolderError {
            throw error
        } catch {
            throw LookFolderError(description: "--looks: cannot read \(file): \(error.localizedDescription)")
        }
        do {
            return try LookParser.parse(bytes, expectedName: name)
        } catch {
            throw LookFolderError(description: "--looks: \(file) is not a look: \(error)")
        }
    }

    /// Every look, in name order.
    public var all: [Look] { looks.withLock { $0.values.sorted { $0.name < $1.name } } }

    /// The look named `name`, if there is one.
    public func look(named name: String) -> Look? { looks.withLock { $0[name] } }

    /// Writes `look` as `NAME.json`, replacing a look of that name; refused when it would be
    /// one more than ``capacity`` or the file cannot be written (then nothing changed).
    public func save(_ look: Look) throws(LookFolderError) {
        let count = looks.withLock { $0.count }
        if self.look(named: look.name) == nil, count >= Self.capacity {
            throw LookFolderError(description: "the server keeps \(count) looks, the most it takes: delete one first")
        }
        if let problem = AtomicFile.write(look.encoded(), folder: path, name: look.name + ".json",
                                          temporaryPrefix: Self.temporaryPrefix, replacing: true) {
            throw LookFolderError(description: "the look '\(look.name)' was not saved: \(problem)")
        }
        looks.withLock { $0[look.name] = look }
    }

    /// Removes the look `name` and its file; false when there is no such look.
    public func delete(named name: String) throws(LookFolderError) -> Bool {
        guard self.look(named: name) != nil else { return false }
        guard unlink(path + "/" + name + ".json") == 0 || errno == ENOENT else {
            throw LookFolderError(description: "the look '\(name)' was not deleted: \(String(cString: strerror(errno)))")
        }
        looks.withLock { $0[name] = nil }
        return true
    }
}
