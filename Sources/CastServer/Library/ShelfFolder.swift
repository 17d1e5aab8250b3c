import Foundation

/// The folder of an ``UploadShelf`` (`--luts`, `--styles`): one file an item, named `NAME.EXT`.
/// Made when missing; files a write cut short left (hidden, ``temporaryPrefix``) are removed when
/// it is opened; items are written atomically and never replace a file there.
public struct ShelfFolder: Sendable {
    public let path: String
    /// What the folder is called in messages ("LUT folder").
    let noun: String
    /// Hidden, so that a write cut short is never read as an item.
    static let temporaryPrefix = ".shelf-"

    /// Opens (makes) the folder at `path` and removes what interrupted writes left in it.
    public init(path: String, noun: String) throws(ShelfRefusal) {
        self.path = path
        self.noun = noun
        for name in try names() where name.hasPrefix(Self.temporaryPrefix) { unlink(path + "/" + name) }
    }

    /// The names of the files in it, sorted (hidden ones too).
    public func names() throws(ShelfRefusal) -> [String] {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw ShelfRefusal(500, "cannot read the \(noun) \(path): \(error.localizedDescription)")
        }
    }

    /// Writes `bytes` as `file`, atomically: into a hidden file, flushed, then linked under its
    /// name, which fails rather than replace a file there.
    public func store(_ bytes: [UInt8], as file: String) throws(ShelfRefusal) {
        let temporary = path + "/" + Self.temporaryPrefix + UUID().uuidString
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ShelfRefusal(500, "cannot write in the \(noun): \(String(cString: strerror(errno)))") }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        let flushed = written && fsync(descriptor) == 0
        let problem = String(cString: strerror(errno))
        close(descriptor)
        guard flushed else { throw ShelfRefusal(507, "cannot write \(file) in the \(noun): \(problem)") }
        guard link(temporary, path + "/" + file) == 0 else {
            throw ShelfRefusal(500, "cannot store \(file) in the \(noun): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes `file`.
    public func remove(_ file: String) throws(ShelfRefusal) {
        guard unlink(path + "/" + file) == 0 else {
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
