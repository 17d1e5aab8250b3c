import CastServer
import FilterKit

/// `--luts DIR`: the colour LUTs the `lut` filter offers (serve, snapshot, bench).
enum LUTOptions {
    static let spec = OptionSpec(name: "--luts", valueName: "DIR",
                                 help: "Colour LUTs (.cube, NAME.cube each) the lut filter offers, read at start (serve: default DATA/luts); serve also stores LUTs controlling clients upload there, making DIR then.")

    /// The folder `--luts` names, else `defaultPath`, read (nil with neither).
    static func folder(_ options: ParsedOptions, default defaultPath: String? = nil) throws -> LUTFolder? {
        guard let path = options.string("--luts") ?? defaultPath else { return nil }
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
