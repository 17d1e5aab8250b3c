import Synchronization

/// One LUT of a ``LUTLibrary``: its name, the parsed file and its thumbnail; its ``LUTTable``
/// comes from the library's ``LUTTableCache``. Thread-safe (immutable).
final class LoadedLUT: Sendable {
    /// Told apart from every other LUT loaded in this process, even one at the same address
    /// after this one is gone (a deleted LUT's table must never serve a new LUT).
    let serial = LoadedLUT.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    let name: String
    let lut: CubeLUT
    /// The JPEG of ``LUTChart`` graded by it; empty: none was made.
    let thumbnail: [UInt8]
    private let tables: LUTTableCache

    init(name: String, lut: CubeLUT, thumbnail: [UInt8] = [], tables: LUTTableCache = LUTTableCache()) {
        self.name = name
        self.lut = lut
        self.thumbnail = thumbnail
        self.tables = tables
    }

    /// The choice's `thumbnail`: its URL, or "" without one.
    var thumbnailPath: String { thumbnail.isEmpty ? "" : LUTLibrary.thumbnailPath(name) }

    /// What a picker shows: the file's title (its first 60 characters), else the name.
    var label: String { lut.title.isEmpty ? name : String(lut.title.prefix(60)) }

    /// The table, built the first time (tens of milliseconds) and kept while it is among the
    /// library's most recently used.
    var table: LUTTable { tables.table(for: self) }
}

/// The tables of the ``limit`` LUTs applied most recently (6.4 MB each): built on first
/// use — outside the lock, so that a build never holds up the filters of other LUTs — and
/// dropped, the least recently used first, beyond the limit (a filter holds its table while it
/// applies it). Thread-safe.
final class LUTTableCache: Sendable {
    static let limit = 8
    private let recent = Mutex<[(lut: UInt64, table: LUTTable)]>([])

    func table(for lut: LoadedLUT) -> LUTTable {
        let key = lut.serial
        if let table = recent.withLock({ Self.take(key, from: &$0) }) { return table }
        let built = LUTTable(lut.lut)
        return recent.withLock { recent in
            if let table = Self.take(key, from: &recent) { return table }
            recent.insert((key, built), at: 0)
            if recent.count > Self.limit { recent.removeLast() }
            return built
        }
    }

    /// `key`'s table, moved to the front, if it is kept.
    private static func take(_ key: UInt64, from recent: inout [(lut: UInt64, table: LUTTable)]) -> LUTTable? {
        guard let index = recent.firstIndex(where: { $0.lut == key }) else { return nil }
        let entry = recent.remove(at: index)
        recent.insert(entry, at: 0)
        return entry.table
    }

    /// Drops `lut`'s table (the LUT was deleted): its memory goes once no filter holds it.
    func forget(_ lut: LoadedLUT) {
        recent.withLock { $0.removeAll { $0.lut == lut.serial } }
    }

    /// How many tables are kept (for tests).
    var count: Int { recent.withLock { $0.count } }
}

/// Why a LUT was not added to a ``LUTLibrary``.
public enum LUTLibraryError: Error, Equatable, CustomStringConvertible {
    /// A name that is not 1–32 of `a-z 0-9 _ -`.
    case badName(String)
    /// A LUT of that name is there already (LUTs are never replaced: filters applying it keep their table).
    case exists(String)
    /// The library holds ``LUTLibrary/capacity`` LUTs.
    case full(Int)

    public var description: String {
        switch self {
        case .badName(let name):
            "'\(name.prefix(40))' is not a LUT name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -"
        case .exists(let name): "a LUT named '\(name)' exists already"
        case .full(let count): "the server holds \(count) LUTs, the most it takes"
        }
    }
}

/// The colour LUTs a server offers, by name, and the `lut` filter over them (``catalogEntry``):
/// its `lut` choices are this library's names in order, read at every use, so that a LUT added
/// is a choice at once. The filter is left out of the catalog while the library is empty.
/// Bounded: at most ``capacity`` LUTs. Thread-safe: LUTs are added and removed on the network thread and
/// read by the threads that validate commands, build and apply filters.
public final class LUTLibrary: Sendable {
    /// The most LUTs a library holds.
    public static let capacity = 64
    public static let maximumNameLength = 32

    private let luts = Mutex<[LoadedLUT]>([])
    let tables = LUTTableCache()

    public init() {}

    /// Whether `name` may name a LUT: 1–32 of `a-z 0-9 _ -` (a file's stem, a URL's last part).
    public static func isValidName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return allowed && (1...maximumNameLength).contains(name.utf8.count)
    }

    /// Where the thumbnail of the LUT `name` is served.
    public static func thumbnailPath(_ name: String) -> String { "/api/luts/\(name).jpg" }

    /// Adds `lut` as `name`, after the others (choices keep their order: a client's index stays
    /// valid until a LUT before it is removed), with `thumbnail` (a JPEG of ``LUTChart`` graded by
    /// it, made by the caller, which can encode JPEG; empty: the choice has no picture).
    public func add(_ lut: CubeLUT, as name: String, thumbnail: [UInt8] = []) throws(LUTLibraryError) {
        guard Self.isValidName(name) else { throw .badName(name) }
        try luts.withLock { luts throws(LUTLibraryError) in
            guard !luts.contains(where: { $0.name == name }) else { throw .exists(name) }
            guard luts.count < Self.capacity else { throw .full(luts.count) }
            luts.append(LoadedLUT(name: name, lut: lut, thumbnail: thumbnail, tables: tables))
        }
    }

    /// Removes the LUT `name` (false: there is none); the choices after it move up one. A filter
    /// applying it keeps its table until it is replaced.
    @discardableResult
    public func remove(_ name: String) -> Bool {
        guard let removed = luts.withLock({ luts in luts.firstIndex { $0.name == name }.map { luts.remove(at: $0) } }) else { return false }
        tables.forget(removed)
        return true
    }

    /// Whether a LUT is named `name`.
    public func contains(_ name: String) -> Bool { luts.withLock { $0.contains { $0.name == name } } }

    /// How many LUTs there are.
    public var count: Int { luts.withLock { $0.count } }

    /// Each LUT: its name, lattice size, title and thumbnail URL ("": none), in the order they were added.
    public var listing: [(name: String, size: Int, title: String, thumbnail: String)] {
        luts.withLock { $0.map { ($0.name, $0.lut.size, $0.lut.title, $0.thumbnailPath) } }
    }

    /// The thumbnail of the LUT `name` (a JPEG); nil when there is no such LUT or it has none.
    public func thumbnail(_ name: String) -> [UInt8]? {
        luts.withLock { $0.first { $0.name == name }.map(\.thumbnail) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The `lut` filter over this library, for a ``FilterCatalog``.
    public var catalogEntry: FilterCatalog.Entry {
        FilterCatalog.Entry(describe: { [self] in
            let choices = luts.withLock { $0.map { ParameterDescriptor.Choice(id: $0.name, label: $0.label, thumbnail: $0.thumbnailPath) } }
            return choices.isEmpty ? nil : LUTFilter.describing(choices: choices)
        }, make: { [self] settings in
            let name = settings.choice("lut")
            // A LUT removed since its chain was validated: only a chain no session holds any more
            // can name it (DELETE refuses a LUT a chain uses), so the identity does no harm.
            guard let lut = luts.withLock({ $0.first { $0.name == name } }) else { return LUTFilter(settings: settings) }
            return LUTFilter(lut: lut, settings: settings)
        })
    }
}
