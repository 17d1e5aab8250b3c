import FilterKit
import Logging
import StyleKit

/// The filters that need the person matte — `matte`, `backgroundBlur`, `backgroundReplace` — and
/// links on the person or the background only (``RegionFilter``) in a catalog, where the runtime
/// and the networks are laid out (a ``MatteEngine`` was made). Where they are not, it says why and
/// the catalog omits them (and offers the region `all` only).
public enum MatteCatalog {
    /// `base` with the matte's filters over `engine` (each after the last filter of its category)
    /// and its regions, or `base` alone when there is none (logging why); `backgrounds`: the
    /// uploaded pictures `backgroundReplace` offers beside its colours.
    public static func adding(to base: FilterCatalog, engine: Result<MatteEngine, StyleUnavailable>,
                              backgrounds: BackgroundLibrary? = nil) -> FilterCatalog {
        if case .failure(let reason) = engine {
            Log.warning("the person matte filters (matte, backgroundBlur, backgroundReplace) are unavailable: \(reason)")
        }
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
