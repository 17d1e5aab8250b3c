import FilterKit
import Synchronization

/// The styles the `style` filter paints in: the shipped network's 26 and the pictures uploaded
/// (at most ``capacity``), and the filter's catalog entry over them (``catalogEntry``): its
/// `style` choices are read at every use, so an uploaded style is a choice at once and a removed
/// one is gone at once (links painting in it keep its code until the chain changes).
///
/// Thread-safe: styles are added and removed on the network thread and read by the threads that
/// validate commands and build filters.
public final class StyleLibrary: Sendable {
    /// The most uploaded styles a library holds.
    public static let capacity = 32

    public let engine: StyleEngine
    private let uploaded = Mutex<[UploadedStyle]>([])

    public init(engine: StyleEngine) {
        self.engine = engine
    }

    /// Why `name` cannot name an uploaded style: not 1–32 of `a-z 0-9 _ -` (the LUTs' rule), or a
    /// shipped style's id.
    public static func problem(naming name: String) -> String? {
        guard LUTLibrary.isValidName(name) else {
            return "'\(name.prefix(40))' is not a style name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -"
        }
        if StyleChoices.shipped.contains(where: { $0.id == name }) { return "'\(name)' is a shipped style's name" }
        return nil
    }

    /// Adds `style` after the others; false if one of its name is there or the library is full.
    @discardableResult
    public func add(_ style: UploadedStyle) -> Bool {
        uploaded.withLock { styles in
            guard styles.count < Self.capacity, !styles.contains(where: { $0.name == style.name }) else { return false }
            styles.append(style)
            return true
        }
    }

    /// Removes the style `name`; false if there is none.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        uploaded.withLock { styles in
            guard let index = styles.firstIndex(where: { $0.name == name }) else { return false }
            styles.remove(at: index)
            return true
        }
    }

    /// The uploaded style `name`, if there is one.
    public func style(named name: String) -> UploadedStyle? { uploaded.withLock { $0.first { $0.name == name } } }

    /// The uploaded styles, in the order they were added.
    public var styles: [UploadedStyle] { uploaded.withLock { $0 } }

    /// Where a style's thumbnail is served (``UploadedStyle/thumbnail``).
    public static func thumbnailPath(_ name: String) -> String { "/api/styles/\(name).jpg" }

    /// The `style` filter over the shipped and uploaded styles, for a ``FilterCatalog``.
    public var catalogEntry: FilterCatalog.Entry {
        FilterCatalog.Entry(describe: { [self] in
            let pictures = uploaded.withLock { $0.map { ParameterDescriptor.Choice(id: $0.name, label: $0.name, thumbnail: Self.thumbnailPath($0.name)) } }
            return StyleFilter.describing(choices: StyleChoices.shipped + pictures, calibration: engine.calibration)
        }, make: { [self] settings in
            let id = settings.choice("style")
            let style: PaintingStyle
            if let index = StyleChoices.shipped.firstIndex(where: { $0.id == id }) {
                style = .shipped(index)
            } else if let picture = self.style(named: id) {
                style = .code(picture.code)
            } else {
                // Removed between the command's validation and now: the first shipped style.
                style = .shipped(0)
            }
            return StyleFilter(style: style, settings: settings, engine: engine)
        })
    }
}
