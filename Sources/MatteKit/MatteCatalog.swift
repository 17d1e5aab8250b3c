import FilterKit
import Logging
import StyleKit

/// The filters that need the person matte — `matte`, `backgroundBlur`, `backgroundReplace` — and
/// links on the person or the background only (``RegionFilter``) in a catalog, where the runtime
/// and the networks are laid out (``MatteEngine/shared`` made). Where they are not, it says why
/// once and the catalog omits them (and offers the region `all` only).
public enum MatteCatalog {
    /// `base` with the matte's filters over the process's engine, or `base` alone (said once);
    /// `backgrounds`: the uploaded pictures `backgroundReplace` offers beside its colours.
    public static func adding(to base: FilterCatalog, backgrounds: BackgroundLibrary? = nil) -> FilterCatalog {
        adding(to: base, engine: sharedEngine, backgrounds: backgrounds)
    }

    /// Whether the process's engine is there (its runtime and networks laid out).
    public static var isAvailable: Bool { (try? sharedEngine.get()) != nil }

    /// ``MatteEngine/shared``, its absence logged once.
    private static let sharedEngine: Result<MatteEngine, StyleUnavailable> = {
        if case .failure(let reason) = MatteEngine.shared {
            Log.warning("the person matte filters (matte, backgroundBlur, backgroundReplace) are unavailable: \(reason)")
        }
        return MatteEngine.shared
    }()

    /// `base` with the matte's filters over `engine` (each after the last filter of its category)
    /// and its regions, or `base` alone when there is none.
    static func adding(to base: FilterCatalog, engine: Result<MatteEngine, StyleUnavailable>,
                       backgrounds: BackgroundLibrary? = nil) -> FilterCatalog {
        guard case .success(let engine) = engine else { return base }
        let blur = FilterCatalog.Entry(describe: { BackgroundBlurFilter.descriptor },
                                       make: { BackgroundBlurFilter(amount: $0["amount"], engine: engine) })
        // The uploaded backgrounds are read at every use: one uploaded is a choice at once.
        let replace = FilterCatalog.Entry(describe: {
            backgrounds.map { BackgroundReplaceFilter.describing(choices: $0.choices) } ?? BackgroundReplaceFilter.descriptor
        }, make: { settings in
            let id = settings.choice("background")
            return BackgroundReplaceFilter(background: id, picture: backgrounds?.uploaded.picture(named: id), engine: engine)
        })
        let matte = FilterCatalog.Entry(describe: { MatteFilter.descriptor }, make: { _ in MatteFilter(engine: engine) })
        return base.adding(blur, category: .blur).adding(replace, category: .stylize).adding(matte, category: .stylize)
            .offeringRegions { filter, region in RegionFilter(filter, region: region, engine: engine) }
    }
}
