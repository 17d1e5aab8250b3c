import FilterKit
import MediaKit

/// A LUT checked on the `lut-parse` thread: the file parsed and its thumbnail made.
public struct CheckedLUT: Sendable {
    let lut: CubeLUT
    let thumbnail: [UInt8]
}

/// `--luts DIR`: the folder of the `lut` filter's LUTs, one `NAME.cube` each (a ``ShelfFolder``).
/// At start every `.cube` in it is read into the ``LUTLibrary`` (the name is the file's stem,
/// checked as ``LUTLibrary/isValidName(_:)``); a LUT uploaded later is written into it so that it
/// is there after a restart. Hidden files and other names are not read. Each LUT gets its
/// thumbnail when it is read or checked (``thumbnail(of:)``), never per request.
public final class LUTFolder: Sendable {
    let folder: ShelfFolder
    public let library: LUTLibrary
    public var path: String { folder.path }

    /// Opens (makes) the folder and reads every `.cube` into a new library, in name order. A file
    /// that is not a good LUT (or a name that is not one, or more than the library takes) is an
    /// error naming the file, line and reason.
    public init(path: String) throws(ShelfRefusal) {
        folder = try ShelfFolder(path: path, noun: "LUT folder")
        library = LUTLibrary()
        for file in try folder.names() where file.hasSuffix(".cube") { try load(file) }
    }

    private func load(_ file: String) throws(ShelfRefusal) {
        let name = String(file.dropLast(".cube".count))
        func refusal(_ reason: String) -> ShelfRefusal { ShelfRefusal(400, "--luts: \(path)/\(file): \(reason)") }
        if let refused = refusalToAdd(name) { throw refusal(refused.description) }
        let bytes: [UInt8]
        do throws(ShelfRefusal) {
            bytes = try folder.read(file, atMost: CubeParser.maximumBytes)
        } catch {
            throw ShelfRefusal(error.status, "--luts: \(error.description)")
        }
        let lut: CubeLUT
        do throws(CubeError) {
            lut = try CubeParser.parse(bytes)
        } catch {
            throw refusal(error.description)
        }
        do throws(ShelfRefusal) {
            try offer(CheckedLUT(lut: lut, thumbnail: try Self.thumbnail(of: lut)), as: name)
        } catch {
            throw refusal(error.description)
        }
    }

    /// The JPEG a LUT's choice shows: ``LUTChart`` graded by `lut` (192x112), through TurboJPEG
    /// as every picture the server sends. Well under a millisecond in a release build.
    static func thumbnail(of lut: CubeLUT) throws(ShelfRefusal) -> [UInt8] {
        let chart = LUTChart.frame(graded: lut)
        do {
            return try JPEGEncoder(width: chart.width, height: chart.height, quality: 80).encode(chart)
        } catch {
            throw ShelfRefusal(500, "the LUT's thumbnail cannot be made: \(error)")
        }
    }

    /// Adds `checked` to the library as `name`.
    private func offer(_ checked: CheckedLUT, as name: String) throws(ShelfRefusal) {
        do throws(LUTLibraryError) {
            try library.add(checked.lut, as: name, thumbnail: checked.thumbnail)
        } catch {
            throw ShelfRefusal(error == .exists(name) ? 409 : 400, error.description)
        }
    }

    /// Deletes the LUT `name`: its file first (so that a restart does not bring it back), then its
    /// library entry and thumbnail. 404 when there is no such LUT.
    public func remove(_ name: String) -> ShelfRefusal? {
        guard library.contains(name) else { return ShelfRefusal(404, "no LUT named '\(name.prefix(40))'") }
        do {
            try folder.remove(name + ".cube")
        } catch {
            return error
        }
        library.remove(name)
        return nil
    }
}

/// LUTs are uploaded as `.cube` files: parsed and checked, and their thumbnail made, on the `lut-parse` thread.
extension LUTFolder: UploadShelf {
    public var noun: String { "LUT" }
    public var expected: String { "a .cube file" }
    public var maximumBytes: Int { CubeParser.maximumBytes }
    public var checkThreadName: String { "lut-parse" }

    public func refusalToAdd(_ name: String) -> ShelfRefusal? {
        guard LUTLibrary.isValidName(name) else { return ShelfRefusal(400, LUTLibraryError.badName(name).description) }
        if library.contains(name) { return ShelfRefusal(409, LUTLibraryError.exists(name).description) }
        if library.count >= LUTLibrary.capacity { return ShelfRefusal(507, LUTLibraryError.full(library.count).description) }
        return nil
    }

    public func check(_ body: [UInt8], name: String) -> Result<CheckedLUT, ShelfRefusal> {
        let lut: CubeLUT
        do throws(CubeError) {
            lut = try CubeParser.parse(body)
        } catch {
            return .failure(ShelfRefusal(400, "\(name).cube: \(error)"))
        }
        return Result { () throws(ShelfRefusal) in CheckedLUT(lut: lut, thumbnail: try Self.thumbnail(of: lut)) }
    }

    public func keep(_ checked: CheckedLUT, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal> {
        Result { () throws(ShelfRefusal) in
            try folder.store(body, as: name + ".cube")
            try offer(checked, as: name)
            return JSONBody.encoded(LUTEntry(name: name, size: checked.lut.size, title: checked.lut.title,
                                             thumbnail: LUTLibrary.thumbnailPath(name)))
        }
    }

    /// `GET /api/luts`' JSON body.
    var listing: LUTListing {
        LUTListing(luts: library.listing.map { LUTEntry(name: $0.name, size: $0.size, title: $0.title, thumbnail: $0.thumbnail) })
    }
}

/// One LUT as `GET /api/luts` lists it and a 201 answers it.
struct LUTEntry: Encodable {
    let name: String, size: Int, title: String, thumbnail: String
}

/// `GET /api/luts`.
struct LUTListing: Encodable {
    let luts: [LUTEntry]
}
