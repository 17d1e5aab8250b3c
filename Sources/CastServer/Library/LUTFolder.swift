import FilterKit
import Foundation

/// Why the LUT folder could not be read or written.
public struct LUTFolderError: Error, CustomStringConvertible {
    public let description: String
}

/// `--luts DIR`: the folder of the `lut` filter's LUTs, one `NAME.cube` each. At start every
/// `.cube` in it is read into the ``LUTLibrary`` (the name is the file's stem, checked as
/// ``LUTLibrary/isValidName(_:)``); a LUT uploaded later is written into it (an ``UploadShelf``)
/// so that it is there after a restart. Hidden files and other names are not read.
public final class LUTFolder: Sendable {
    public let folder: ShelfFolder
    public let library: LUTLibrary

    public var path: String { folder.path }

    /// Creates the folder if missing, removes temporary files a crash left, and reads every
    /// `.cube` into a new library, in name order. A file that is not a good LUT (or a name that
    /// is not one, or more than the library takes) is an error naming the file, line and reason.
    public init(path: String) throws(LUTFolderError) {
        library = LUTLibrary()
        do throws(ShelfRefusal) {
            folder = try ShelfFolder(path: path, noun: "LUT folder")
            for name in try folder.names() where !name.hasPrefix(".") && name.hasSuffix(".cube") {
                try load(name)
            }
        } catch {
            throw LUTFolderError(description: "--luts: \(error)")
        }
    }

    private func load(_ file: String) throws(ShelfRefusal) {
        let bytes = try folder.read(file, atMost: CubeParser.maximumBytes)
        do {
            try library.add(CubeParser.parse(bytes), as: String(file.dropLast(".cube".count)))
        } catch let error as CubeError {
            throw ShelfRefusal(400, "\(folder.path)/\(file): \(error)")
        } catch {
            throw ShelfRefusal(400, "\(folder.path)/\(file): \(error)")
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
        guard LUTLibrary.isValidName(name) else {
            return ShelfRefusal(400, "'\(name.prefix(40))' is not a LUT name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -")
        }
        if library.contains(name) { return ShelfRefusal(409, "a LUT named '\(name)' exists already") }
        if library.count >= LUTLibrary.capacity { return ShelfRefusal(507, "the server holds \(library.count) LUTs, the most it takes") }
        return nil
    }

    public func check(_ body: [UInt8], name: String) -> Result<CubeLUT, ShelfRefusal> {
        Result { () throws(CubeError) in try CubeParser.parse(body) }.mapError { ShelfRefusal(400, "\(name).cube: \($0)") }
    }

    public func keep(_ lut: CubeLUT, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal> {
        Result { () throws(ShelfRefusal) in
            try folder.store(body, as: name + ".cube")
            do {
                try library.add(lut, as: name)
            } catch {
                throw ShelfRefusal(500, "\(error)")
            }
            struct Stored: Encodable { let name: String, size: Int, title: String }
            return JSONBody.encoded(Stored(name: name, size: lut.size, title: lut.title))
        }
    }
}
