import CastServer
import Foundation
import MediaKit
import StyleKit

/// A folder of pictures a filter offers as choices — `--styles DIR` (the `style` filter's styles),
/// `DATA/backgrounds` (`backgroundReplace`'s backgrounds) — one `NAME.jpg` or `NAME.png` each (the
/// picture as it was uploaded). At start each is decoded and made ready into the ``PictureLibrary``
/// (``PictureLibrary/prepare(named:picture:)``); a picture uploaded later is checked the same way
/// on its own thread, then written into the folder. Hidden files and other names are not read.
///
/// Threads: as ``UploadShelf`` says; the library is thread-safe.
final class PictureFolder<Library: PictureLibrary>: PictureShelf {
    let folder: ShelfFolder
    let library: Library
    let checkThreadName: String
    /// The file endings taken, by format.
    private static var endings: [String: String] { ["JPEG": ".jpg", "PNG": ".png"] }
    private static var readable: [String] { [".jpg", ".jpeg", ".png"] }

    /// Opens (makes) the folder at `path` and reads every picture in it into `library`, in name
    /// order; one that is not a good picture is an error naming the file and the reason.
    /// `checkThreadName`: the thread that checks uploads ("style-check").
    init(path: String, library: Library, checkThreadName: String) throws(ShelfRefusal) {
        folder = try ShelfFolder(path: path, noun: "\(Library.noun) folder")
        self.library = library
        self.checkThreadName = checkThreadName
        for file in try folder.names() where !file.hasPrefix(".") {
            guard let ending = Self.readable.first(where: { file.hasSuffix($0) }) else { continue }
            let name = String(file.dropLast(ending.count))
            if let problem = refusalToAdd(name) { throw ShelfRefusal(400, "\(path)/\(file): \(problem)") }
            switch check(try folder.read(file, atMost: maximumBytes), name: name) {
            case .success(let picture): library.uploaded.add(picture)
            case .failure(let refusal): throw ShelfRefusal(400, "\(path)/\(file): \(refusal)")
            }
        }
    }

    var noun: String { "\(Library.noun) picture" }
    var expected: String { "a JPEG or PNG picture" }
    var maximumBytes: Int { 16 << 20 }

    func refusalToAdd(_ name: String) -> ShelfRefusal? {
        if let problem = Library.problem(naming: name) { return ShelfRefusal(400, problem) }
        if library.uploaded.picture(named: name) != nil { return ShelfRefusal(409, "a \(Library.noun) named '\(name)' exists already") }
        let count = library.uploaded.all.count
        if count >= library.uploaded.capacity {
            return ShelfRefusal(507, "the server holds \(count) uploaded \(Library.noun)s, the most it takes")
        }
        return nil
    }

    func check(_ body: [UInt8], name: String) -> Result<Library.Picture, ShelfRefusal> {
        guard StillPicture.format(of: body) != nil else {
            return .failure(ShelfRefusal(415, "\(name): not a JPEG or PNG picture (its first bytes say neither)"))
        }
        return Result { () throws(PictureUploadError) in try library.prepare(named: name, picture: body) }
            .mapError { ShelfRefusal(400, "\(name): \($0)") }
    }

    func keep(_ picture: Library.Picture, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal> {
        Result { () throws(ShelfRefusal) in
            try folder.store(body, as: name + (Self.endings[picture.format] ?? ".jpg"))
            guard library.uploaded.add(picture) else { throw ShelfRefusal(409, "a \(Library.noun) named '\(name)' exists already") }
            return Self.encoded(Entry(picture))
        }
    }

    /// `{"styles": […]}` (or `"backgrounds"`): every picture as a 201 answers it.
    var listing: [UInt8] {
        Self.encoded([Library.noun + "s": library.uploaded.all.map(Entry.init)])
    }

    func entry(_ name: String) -> [UInt8]? { library.uploaded.picture(named: name).map { Self.encoded(Entry($0)) } }

    func thumbnail(_ name: String) -> [UInt8]? { library.uploaded.picture(named: name)?.thumbnail }

    func remove(_ name: String) -> ShelfRefusal? {
        guard let picture = library.uploaded.picture(named: name) else {
            return ShelfRefusal(404, "no \(Library.noun) named '\(name.prefix(40))'")
        }
        do {
            try folder.remove(name + (Self.endings[picture.format] ?? ".jpg"))
        } catch {
            return error
        }
        library.uploaded.remove(name)
        return nil
    }

    /// One picture as the listing and a 201 give it.
    private struct Entry: Encodable {
        let name: String
        let format: String
        let width: Int
        let height: Int
        let thumbnail: String

        init(_ picture: Library.Picture) {
            name = picture.name
            format = picture.format
            width = picture.width
            height = picture.height
            thumbnail = Library.thumbnailPath(picture.name)
        }
    }

    private static func encoded(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
