import FilterKit
import Foundation

/// Why the LUT folder could not be read or written.
public struct LUTFolderError: Error, CustomStringConvertible {
    public let description: String
}

/// `--luts DIR`: the folder of the `lut` filter's LUTs, one `NAME.cube` each. At start every
/// `.cube` in it is read into the ``LUTLibrary`` (the name is the file's stem, checked as
/// ``LUTLibrary/isValidName(_:)``); a LUT uploaded later is written into it (``store(_:named:)``)
/// so that it is there after a restart. Hidden files and other names are not read.
public final class LUTFolder: Sendable {
    public let path: String
    public let library: LUTLibrary
    /// Hidden, so that a write cut short is never read as a LUT.
    static let temporaryPrefix = ".lut-"

    /// Creates the folder if missing, removes temporary files a crash left, and reads every
    /// `.cube` into a new library, in name order. A file that is not a good LUT (or a name that
    /// is not one, or more than the library takes) is an error naming the file, line and reason.
    public init(path: String) throws(LUTFolderError) {
        self.path = path
        library = LUTLibrary()
        let files: [String]
        switch AtomicFile.prepare(path, temporaryPrefix: Self.temporaryPrefix, suffix: ".cube") {
        case .success(let names): files = names
        case .failure(let error): throw LUTFolderError(description: "cannot read the LUT folder \(path): \(error.reason)")
        }
        for name in files { try load(name) }
    }

    private func load(_ file: String) throws(LUTFolderError) {
        let full = path + "/" + file
        let stem = String(file.dropLast(".cube".count))
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: full)
            if let size = attributes[.size] as? Int, size > CubeParser.maximumBytes {
                throw CubeError(line: 0, reason: "the file is too big: \(size) bytes, at most \(CubeParser.maximumBytes)")
            }
            try library.add(CubeParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: full)))), as: stem)
        } catch let error as CubeError {
            throw LUTFolderError(description: "--luts: \(full): \(error)")
        } catch let error as LUTLibraryError {
            throw LUTFolderError(description: "--luts: \(full): \(error)")
        } catch {
            throw LUTFolderError(description: "--luts: cannot read \(full): \(error.localizedDescription)")
        }
    }

    /// Deletes the LUT `name`: its file first (so that a restart does not bring it back), then its
    /// library entry. False when there is no such LUT.
    public func remove(_ name: String) throws(LUTFolderError) -> Bool {
        guard library.contains(name) else { return false }
        guard unlink(path + "/" + name + ".cube") == 0 || errno == ENOENT else {
            throw LUTFolderError(description: "cannot delete \(name).cube: \(String(cString: strerror(errno)))")
        }
        return library.remove(name)
    }

    /// Writes `bytes` (a LUT already parsed and checked) as `NAME.cube`, atomically: into a hidden
    /// file, flushed, then linked under its name, which fails rather than replace a file there.
    public func store(_ bytes: [UInt8], named name: String) throws(LUTFolderError) {
        if let problem = AtomicFile.write(bytes, folder: path, name: name + ".cube", temporaryPrefix: Self.temporaryPrefix,
                                          replacing: false) {
            throw LUTFolderError(description: problem)
        }
    }
}

/// LUTs are uploaded as `.cube` files: parsed and checked on the `lut-parse` thread.
extension LUTFolder: UploadShelf {
    public var noun: String { "LUT" }
    public var expected: String { "a .cube file" }
    public var maximumBytes: Int { CubeParser.maximumBytes }
    public var checkThreadName: String { "lut-parse" }

    public func refusalToAdd(_ name: String) -> ShelfRefusal? {
        guard LUTLibrary.isValidName(name) else { return ShelfRefusal(400, LUTLibraryError.badName(name).description) }
        if library.contains(name) { return ShelfRefusal(409, "a LUT named '\(name)' exists already") }
        if library.count >= LUTLibrary.capacity { return ShelfRefusal(507, "the server holds \(library.count) LUTs, the most it takes") }
        return nil
    }

    public func check(_ body: [UInt8], name: String) -> Result<CubeLUT, ShelfRefusal> {
        Result { () throws(CubeError) in try CubeParser.parse(body) }.mapError { ShelfRefusal(400, "\(name).cube: \($0)") }
    }

    public func keep(_ lut: CubeLUT, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal> {
        do {
            try store(body, named: name)
            try library.add(lut, as: name)
        } catch {
            return .failure(ShelfRefusal(500, "\(error)"))
        }
        struct Stored: Encodable { let name: String, size: Int, title: String }
        return .success(JSONBody.encoded(Stored(name: name, size: lut.size, title: lut.title)))
    }
}
