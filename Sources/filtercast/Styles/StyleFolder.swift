import CastServer
import Foundation
import MediaKit
import StyleKit

/// `--styles DIR`: the pictures the `style` filter paints like, one `NAME.jpg` or `NAME.png` each
/// (the picture as it was uploaded). At start each is decoded and its style code computed into the
/// ``StyleLibrary`` (the runtime is loaded then, when there are any); a picture uploaded later is
/// checked the same way on its own thread, then written into the folder. Hidden files and other
/// names are not read.
///
/// Threads: as ``UploadShelf`` says; the library is thread-safe.
final class StyleFolder: StyleShelf {
    let folder: ShelfFolder
    let library: StyleLibrary
    /// The file endings taken, by format.
    private static let endings = ["JPEG": ".jpg", "PNG": ".png"]
    private static let readable = [".jpg", ".jpeg", ".png"]

    /// Opens (makes) the folder and reads every picture in it into a library over `engine`, in name
    /// order; one that is not a good style picture is an error naming the file and the reason.
    init(path: String, engine: StyleEngine) throws(ShelfRefusal) {
        folder = try ShelfFolder(path: path, noun: "style folder")
        library = StyleLibrary(engine: engine)
        for file in try folder.names() where !file.hasPrefix(".") {
            guard let ending = Self.readable.first(where: { file.hasSuffix($0) }) else { continue }
            let name = String(file.dropLast(ending.count))
            if let problem = refusalToAdd(name) { throw ShelfRefusal(400, "\(path)/\(file): \(problem)") }
            switch check(try folder.read(file, atMost: maximumBytes), name: name) {
            case .success(let style): library.add(style)
            case .failure(let refusal): throw ShelfRefusal(400, "\(path)/\(file): \(refusal)")
            }
        }
    }

    var noun: String { "style picture" }
    var expected: String { "a JPEG or PNG picture" }
    var maximumBytes: Int { 16 << 20 }
    var checkThreadName: String { "style-check" }

    func refusalToAdd(_ name: String) -> ShelfRefusal? {
        if let problem = StyleLibrary.problem(naming: name) { return ShelfRefusal(400, problem) }
        if library.style(named: name) != nil { return ShelfRefusal(409, "a style named '\(name)' exists already") }
        let count = library.styles.count
        if count >= StyleLibrary.capacity { return ShelfRefusal(507, "the server holds \(count) uploaded styles, the most it takes") }
        return nil
    }

    func check(_ body: [UInt8], name: String) -> Result<UploadedStyle, ShelfRefusal> {
        guard StillPicture.format(of: body) != nil else {
            return .failure(ShelfRefusal(415, "\(name): not a JPEG or PNG picture (its first bytes say neither)"))
        }
        return Result { () throws(StyleUploadError) in try UploadedStyle(named: name, picture: body, engine: library.engine) }
            .mapError { ShelfRefusal(400, "\(name): \($0)") }
    }

    func keep(_ style: UploadedStyle, body: [UInt8], name: String) -> Result<[UInt8], ShelfRefusal> {
        Result { () throws(ShelfRefusal) in
            try folder.store(body, as: name + (Self.endings[style.format] ?? ".jpg"))
            guard library.add(style) else { throw ShelfRefusal(409, "a style named '\(name)' exists already") }
            return Self.encoded(Entry(style))
        }
    }

    var listing: [UInt8] {
        struct Listing: Encodable { let styles: [Entry] }
        return Self.encoded(Listing(styles: library.styles.map(Entry.init)))
    }

    func thumbnail(_ name: String) -> [UInt8]? { library.style(named: name)?.thumbnail }

    func remove(_ name: String) -> ShelfRefusal? {
        guard let style = library.style(named: name) else { return ShelfRefusal(404, "no style named '\(name.prefix(40))'") }
        do {
            try folder.remove(name + (Self.endings[style.format] ?? ".jpg"))
        } catch {
            return error
        }
        library.remove(name)
        return nil
    }

    /// One style as `/api/styles` lists it and a 201 answers it.
    private struct Entry: Encodable {
        let name: String
        let format: String
        let width: Int
        let height: Int
        let thumbnail: String

        init(_ style: UploadedStyle) {
            name = style.name
            format = style.format
            width = style.width
            height = style.height
            thumbnail = StyleLibrary.thumbnailPath(style.name)
        }
    }

    private static func encoded(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
