import Foundation

/// The folder of an ``UploadShelf`` the executable makes (`--styles`): one file an item, named
/// `NAME.EXT`. Made when missing; what a write cut short left is removed when it is opened; items
/// are written as ``AtomicFile`` writes (never replacing a file there).
public struct ShelfFolder: Sendable {
    public let path: String
    /// What the folder is called in messages ("style folder").
    let noun: String
    /// Hidden, so that a write cut short is never read as an item.
    static let temporaryPrefix = ".shelf-"

    /// Opens (makes) the folder at `path` and removes what interrupted writes left in it.
    public init(path: String, noun: String) throws(ShelfRefusal) {
        self.path = path
        self.noun = noun
        _ = try names()
    }

    /// The names of the files in it that are not hidden, sorted.
    public func names() throws(ShelfRefusal) -> [String] {
        switch AtomicFile.prepare(path, temporaryPrefix: Self.temporaryPrefix, suffix: "") {
        case .success(let names): return names
        case .failure(let error): throw ShelfRefusal(500, "cannot read the \(noun) \(path): \(error.reason)")
        }
    }

    /// Writes `bytes` as `file`, atomically, failing rather than replace a file of that name.
    public func store(_ bytes: [UInt8], as file: String) throws(ShelfRefusal) {
        if let problem = AtomicFile.write(bytes, folder: path, name: file, temporaryPrefix: Self.temporaryPrefix, replacing: false) {
            throw ShelfRefusal(500, "\(noun): \(problem)")
        }
    }

    /// Removes `file` (gone already is no error).
    public func remove(_ file: String) throws(ShelfRefusal) {
        guard unlink(path + "/" + file) == 0 || errno == ENOENT else {
            throw ShelfRefusal(500, "cannot remove \(file) from the \(noun): \(String(cString: strerror(errno)))")
        }
    }

    /// The bytes of `file`, if it is at most `maximum` bytes long.
    public func read(_ file: String, atMost maximum: Int) throws(ShelfRefusal) -> [UInt8] {
        let full = path + "/" + file
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            if let size = attributes[.size] as? Int, size > maximum {
                throw ShelfRefusal(413, "\(full): the file is too big: \(size) bytes, at most \(maximum)")
            }
            return Array(try Data(contentsOf: URL(fileURLWithPath: full)))
        } catch let refusal as ShelfRefusal {
            throw refusal
        } catch {
            throw ShelfRefusal(500, "cannot read \(full): \(error.localizedDescription)")
        }
    }
}
