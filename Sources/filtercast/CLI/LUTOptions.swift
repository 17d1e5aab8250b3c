import CastServer
import FilterKit

/// `--luts DIR`: the colour LUTs the `lut` filter offers (serve, snapshot, bench).
enum LUTOptions {
    static let spec = OptionSpec(name: "--luts", valueName: "DIR",
                                 help: "Colour LUTs (.cube, NAME.cube each) the lut filter offers, read at start (DIR created if missing); serve also stores LUTs controlling clients upload there.")

    /// The folder `--luts` names, read (nil without the option).
    static func folder(_ options: ParsedOptions) throws -> LUTFolder? {
        guard let path = options.string("--luts") else { return nil }
        do {
            return try LUTFolder(path: path)
        } catch {
            throw UsageError(description: error.description)
        }
    }

    /// `catalog` with the `lut` filter over `folder`'s LUTs, after the colour effects (unchanged without a folder).
    static func catalog(_ catalog: FilterCatalog, with folder: LUTFolder?) -> FilterCatalog {
        guard let folder else { return catalog }
        return catalog.adding(folder.library.catalogEntry, category: .colorEffect)
    }
}
