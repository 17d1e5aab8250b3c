import Synchronization

/// One LUT of a ``LUTLibrary``: its name, the parsed file, and its ``LUTTable``, built the first
/// time it is asked for (by the first filter that applies it) and kept. Thread-safe.
final class LoadedLUT: Sendable {
    let name: String
    let lut: CubeLUT
    private let built = Mutex<LUTTable?>(nil)

    init(name: String, lut: CubeLUT) {
        self.name = name
        self.lut = lut
    }

    /// What a picker shows: the file's title (its first 60 characters), else the name.
    var label: String { lut.title.isEmpty ? name : String(lut.title.prefix(60)) }

    /// The table; the first call builds it (tens of milliseconds), holding the lock meanwhile so
    /// that threads applying bands of the first frame wait for the one build.
    var table: LUTTable {
        built.withLock { table in
            if let table { return table }
            let made = LUTTable(lut)
            table = made
            return made
        }
    }
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
/// Bounded: at most ``capacity`` LUTs. Thread-safe: LUTs are added on the network thread and
/// read by the threads that validate commands, build and apply filters.
public final class LUTLibrary: Sendable {
    /// The most LUTs a library holds.
    public static let capacity = 64
    public static let maximumNameLength = 32

    private let luts = Mutex<[LoadedLUT]>([])

    public init() {}

    /// Whether `name` may name a LUT: 1–32 of `a-z 0-9 _ -` (a file's stem, a URL's last part).
    public static func isValidName(_ name: String) -> Bool {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        return allowed && (1...maximumNameLength).contains(name.utf8.count)
    }

    /// Adds `lut` as `name`, after the others (choices keep their order: a client's index stays valid).
    public func add(_ lut: CubeLUT, as name: String) throws(LUTLibraryError) {
        guard Self.isValidName(name) else { throw .badName(name) }
        try luts.withLock { luts throws(LUTLibraryError) in
            guard !luts.contains(where: { $0.name == name }) else { throw .exists(name) }
            guard luts.count < Self.capacity else { throw .full(luts.count) }
            luts.append(LoadedLUT(name: name, lut: lut))
        }
    }

    /// Whether a LUT is named `name`.
    public func contains(_ name: String) -> Bool { luts.withLock { $0.contains { $0.name == name } } }

    /// How many LUTs there are.
    public var count: Int { luts.withLock { $0.count } }

    /// Each LUT: its name, lattice size and title, in the order they were added.
    public var listing: [(name: String, size: Int, title: String)] {
        luts.withLock { $0.map { ($0.name, $0.lut.size, $0.lut.title) } }
    }

    /// The `lut` filter over this library, for a ``FilterCatalog``.
    public var catalogEntry: FilterCatalog.Entry {
        FilterCatalog.Entry(describe: { [self] in
            let choices = luts.withLock { $0.map { ParameterDescriptor.Choice(id: $0.name, label: $0.label, thumbnail: "") } }
            return choices.isEmpty ? nil : LUTFilter.describing(choices: choices)
        }, make: { [self] settings in
            let name = settings.choice("lut")
            guard let lut = luts.withLock({ $0.first { $0.name == name } }) else {
                preconditionFailure("lut: '\(name)' was validated but is not in the library (LUTs are never removed)")
            }
            return LUTFilter(lut: lut, settings: settings)
        })
    }
}
