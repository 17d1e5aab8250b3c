import FilterKit
import Logging

/// The catalog a server or command offers: the standard filters, plus `style` where the style
/// network is laid out here (a ``StyleEngine`` was made). Where it is not, it says why, and the
/// catalog omits `style`.
public enum StyleCatalog {
    /// The standard filters and `style` over `library`'s styles (shipped and uploaded).
    public static func with(_ library: StyleLibrary) -> FilterCatalog {
        FilterCatalog.standard.adding(library.catalogEntry, category: .stylize)
    }

    /// The standard catalog, with `style` over the shipped styles when there is an `engine`;
    /// without, logging why.
    public static func catalog(for engine: Result<StyleEngine, StyleUnavailable>) -> FilterCatalog {
        switch engine {
        case .success(let engine):
            return adding(to: .standard, engine: engine)
        case .failure(let reason):
            Log.warning("the style filter is unavailable: \(reason)")
            return .standard
        }
    }

    /// `base` with `style` over `engine`'s shipped styles after its last stylize filter (at the
    /// end when it has none): an empty library's entry, whose description says what the engine
    /// reaches once calibrated.
    static func adding(to base: FilterCatalog, engine: StyleEngine) -> FilterCatalog {
        base.adding(StyleLibrary(engine: engine).catalogEntry, category: .stylize)
    }
}
