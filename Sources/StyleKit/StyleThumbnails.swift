import FilterKit
import Foundation
import Logging
import MediaKit

/// The small pictures the page's style picker shows: a photograph from Debian's opencv-doc painted in
/// each shipped style, as `data:` URLs — the page's content security policy allows `img-src data:`,
/// so no route of the server serves them. Made once (a tiny network, 26 runs: a fraction of a
/// second) and kept as JPEG files in the runtime's folder (`thumbnails/`), read from there after.
enum StyleThumbnails {
    static let width = 96
    static let height = 56
    static let photo = "/usr/share/doc/opencv-doc/examples/data/fruits.jpg"
    /// Names the recipe: a new one makes new files.
    static let folder = "thumbnails/multistyle26-fruits-96x56-q60"

    /// A URL per shipped style, by index; empty where none could be made (said once).
    static func urls(engine: StyleEngine) -> [String] {
        let folder = engine.root.appendingPathComponent(folder)
        let files = (0..<StyleNetwork.styleCount).map { folder.appendingPathComponent("style-\($0 + 1).jpg") }
        var pictures = files.compactMap { try? Data(contentsOf: $0) }
        if pictures.count != files.count {
            do {
                pictures = try make(engine: engine).map { Data($0) }
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (file, picture) in zip(files, pictures) { try? picture.write(to: file, options: .atomic) }
            } catch {
                Log.warning("style: no thumbnails for the picker: \(error)")
                return files.map { _ in "" }
            }
        }
        return pictures.map { "data:image/jpeg;base64," + $0.base64EncodedString() }
    }

    /// The photograph in every style, as JPEGs.
    private static func make(engine: StyleEngine) throws -> [[UInt8]] {
        let source = try InputSpec.file(photo).open(SourceOptions(outputSize: (width, height)))
        let original = Frame(width: width, height: height)
        guard try source.read(into: original) else { throw MediaError.invalidInput("\(photo) has no picture") }
        let encoder = try JPEGEncoder(width: width, height: height, quality: 60)
        let frame = Frame(width: width, height: height)
        return try (0..<StyleNetwork.styleCount).map { style in
            frame.copy(from: original)
            if let error = engine.stylize(frame, style: style, strength: 1, detail: 0,
                                          at: .init(width: width, height: height)) {
                throw error
            }
            return try encoder.encode(frame)
        }
    }
}
