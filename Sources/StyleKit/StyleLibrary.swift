import FilterKit
import MediaKit

/// The styles the `style` filter paints in: the shipped network's 26 and the pictures uploaded
/// (at most ``capacity``), and the filter's catalog entry over them (``catalogEntry``): its
/// `style` choices are read at every use, so an uploaded style is a choice at once and a removed
/// one is gone at once (links painting in it keep its code until the chain changes).
///
/// Thread-safe: styles are added and removed on the network thread and read by the threads that
/// validate commands and build filters.
public final class StyleLibrary: PictureLibrary {
    /// The most uploaded styles a library holds.
    public static let capacity = 32

    public let engine: StyleEngine
    public let uploaded = UploadedPictures<UploadedStyle>(capacity: capacity)

    public init(engine: StyleEngine) {
        self.engine = engine
    }

    public static var noun: String { "style" }

    /// Why `name` cannot name an uploaded style: not 1–32 of `a-z 0-9 _ -` (the LUTs' rule), or a
    /// shipped style's id.
    public static func problem(naming name: String) -> String? {
        guard LUTLibrary.isValidName(name) else {
            return "'\(name.prefix(40))' is not a style name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -"
        }
        if StyleChoices.shipped.contains(where: { $0.id == name }) { return "'\(name)' is a shipped style's name" }
        return nil
    }

    /// `bytes` as a style: decoded and its code computed (``UploadedStyle``).
    public func prepare(named name: String, picture bytes: [UInt8]) throws(PictureUploadError) -> UploadedStyle {
        try UploadedStyle(named: name, picture: bytes, engine: engine)
    }

    /// Where a style's thumbnail is served (``UploadedStyle/thumbnail``).
    public static func thumbnailPath(_ name: String) -> String { "/api/styles/\(name).jpg" }

    /// The `style` filter over the shipped and uploaded styles, for a ``FilterCatalog``.
    public var catalogEntry: FilterCatalog.Entry {
        FilterCatalog.Entry(describe: { [self] in
            let pictures = uploaded.all.map { ParameterDescriptor.Choice(id: $0.name, label: $0.name, thumbnail: Self.thumbnailPath($0.name)) }
            return StyleFilter.describing(choices: StyleChoices.shipped + pictures, calibration: engine.calibration)
        }, make: { [self] settings in
            let id = settings.choice("style")
            let style: PaintingStyle
            if let index = StyleChoices.shipped.firstIndex(where: { $0.id == id }) {
                style = .shipped(index)
            } else if let picture = uploaded.picture(named: id) {
                style = .code(picture.code)
            } else {
                // Removed between the command's validation and now: the first shipped style.
                style = .shipped(0)
            }
            return StyleFilter(style: style, settings: settings, engine: engine)
        })
    }
}
