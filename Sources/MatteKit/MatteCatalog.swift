import FilterKit
import Logging
import StyleKit

/// The filters that need the person matte — `matte`, `backgroundBlur`, `backgroundReplace` — and
/// links on the person or the background only (``RegionFilter``) in a catalog, where the runtime
/// and the networks are laid out (``MatteEngine/shared`` made). Where they are not, it says why
/// once and the catalog omits them (and offers the region `all` only).
public enum MatteCatalog {
    /// `base` with the matte's filters over the process's engine, or `base` alone (said once).
    public static func adding(to base: FilterCatalog) -> FilterCatalog {
        adding(to: base, engine: sharedEngine)
    }

    /// ``MatteEngine/shared``, its absence logged once.
    private static let sharedEngine: Result<MatteEngine, StyleUnavailable> = {
        if case .failure(let reason) = MatteEngine.shared {
            Log.warning("the person matte filters (matte, backgroundBlur, backgroundReplace) are unavailable: \(reason)")
        }
        return MatteEngine.shared
    }()

    /// `base` with the matte's filters over `engine` (each after the last filter of its category)
    /// and its regions, or `base` alone when there is none.
    static func adding(to base: FilterCatalog, engine: Result<MatteEngine, StyleUnavailable>) -> FilterCatalog {
        guard case .success(let engine) = engine else { return base }
        let blur = FilterCatalog.Entry(describe: { BackgroundBlurFilter.descriptor },
                                       make: { BackgroundBlurFilter(amount: $0["amount"], engine: engine) })
        let replace = FilterCatalog.Entry(describe: { BackgroundReplaceFilter.descriptor },
                                          make: { BackgroundReplaceFilter(background: $0.choice("background"), engine: engine) })
        let matte = FilterCatalog.Entry(describe: { MatteFilter.descriptor }, make: { _ in MatteFilter(engine: engine) })
        return base.adding(blur, category: .blur).adding(replace, category: .stylize).adding(matte, category: .stylize)
            .offeringRegions { filter, region in RegionFilter(filter, region: region, engine: engine) }
    }
}
