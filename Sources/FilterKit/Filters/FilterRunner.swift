/// Applies the current ``FilterSelection`` on the one thread that owns it, link after link.
///
/// When the selection changes it rebuilds, between frames, only the links whose settings changed:
/// a link with the same settings as one of the previous chain keeps its built filter (tables,
/// scratch buffers), wherever it moved to, so dragging a slider of link 2 does not rebuild link 1.
///
/// Built with `onChainReady`, a runner warms new links that build tables on their first frame
/// (``FrameFilter/needsWarmUp``) in the background (``ChainWarmer``): it keeps
/// applying the chain it has until the new one is ready, then takes it between two frames, so a
/// slider dragged on a distortion does not stall the stream. Without it (a snapshot, a
/// benchmark) a new chain applies at once, tables built on the spot.
public final class FilterRunner {
    public let selection: FilterSelection
    public let catalog: FilterCatalog
    private var filters: [any FrameFilter] = []
    /// Per link: whether splitting its frames pays (with more than one thread).
    private var choosers: [SplitChooser] = []
    private var generation = -1
    /// The selection generation last relinked: applied, or being warmed.
    private var requestedGeneration = -1
    private let scheduler: BandScheduler
    private let warmer: ChainWarmer?
    private let clock = ContinuousClock()

    /// `threads` > 1 lets filters split each frame over that many threads (see ``BandScheduler``),
    /// for the links where that proves faster (``SplitChooser``). `onChainReady`, if given, makes
    /// new links warm in the background; it is called (on another thread) when a warmed chain
    /// waits to be taken by the next `apply` — a paused caller should apply again then.
    public init(selection: FilterSelection, catalog: FilterCatalog = .standard, threads: Int = 1,
                onChainReady: (@Sendable () -> Void)? = nil) {
        self.selection = selection
        self.catalog = catalog
        scheduler = BandScheduler(threads: threads)
        warmer = onChainReady.map { ChainWarmer(onReady: $0) }
    }

    /// The chain used by the last `apply`.
    public private(set) var current: FilterChain = .none

    /// Which selection the last `apply` used: it changes exactly when the chain or a parameter
    /// did, so a caller can mark the first frame made with a new chain.
    public var appliedGeneration: Int { generation }

    public func apply(to frame: Frame) {
        // A chain warmed since the last frame first (not one submitted now: the frame that asks
        // for a chain goes out with the old one, whatever the warm-up takes). One overtaken by a
        // newer selection is still newer than the chain shown: during a slider drag the picture
        // follows the warm-ups instead of waiting for the drag to end.
        if let ready = warmer?.takeReady(), ready.generation > generation {
            adopt(ready.chain, links: ready.links, generation: ready.generation)
        }
        let snapshot = selection.snapshot
        if snapshot.generation != requestedGeneration {
            requestedGeneration = snapshot.generation
            relink(snapshot.chain, generation: snapshot.generation, frame: frame)
        }
        guard scheduler.threads > 1 else {
            for filter in filters { filter.apply(to: frame) }
            return
        }
        for (index, filter) in filters.enumerated() {
            let start = clock.now
            scheduler.apply(filter, to: frame, split: choosers[index].splitsNext)
            choosers[index].record(seconds: (clock.now - start).seconds)
        }
    }

    /// The highest refresh rate among the current chain's filters that paint beside the frame path
    /// (``FrameFilter/refreshRate``); nil when none does. On the chain's thread.
    public var refreshRate: Double? { filters.compactMap(\.refreshRate).max() }

    /// Links `chain`, reusing the current filters with the same settings; a new filter where the
    /// current chain had one of the same name, not reused, inherits from it (in order, each at most once)
    /// (``FrameFilter/inherit(from:)``). Adopts the chain at once when no new link builds tables on
    /// its first frame, nothing was applied yet (the first chain) or there is no warmer.
    private func relink(_ chain: FilterChain, generation: Int, frame: Frame) {
        var reusable = Array(zip(current.links, zip(filters, choosers)))
        var fresh: [Int] = []
        let links = chain.links.enumerated().map { index, settings in
            if let index = reusable.firstIndex(where: { $0.0 == settings }) {
                return reusable.remove(at: index).1
            }
            fresh.append(index)
            return (catalog.makeFilter(settings), SplitChooser())
        }
        for index in fresh {
            if let old = reusable.firstIndex(where: { $0.0.name == chain.links[index].name }) {
                links[index].0.inherit(from: reusable.remove(at: old).1.0)
            }
        }
        let needsWarmUp = fresh.contains { links[$0].0.needsWarmUp }
        if let warmer, needsWarmUp, self.generation >= 0 {
            warmer.submit(ChainWarmer.Job(generation: generation, chain: chain, links: links, fresh: fresh,
                                          width: frame.width, height: frame.height))
        } else {
            adopt(chain, links: links, generation: generation)
        }
    }

    /// Takes `chain`. A link reused from the current chain keeps the chooser the runner went on
    /// updating while `links` (a copy) was warming.
    private func adopt(_ chain: FilterChain, links: [(filter: any FrameFilter, chooser: SplitChooser)], generation: Int) {
        let live = Dictionary(zip(filters.map(ObjectIdentifier.init), choosers), uniquingKeysWith: { first, _ in first })
        filters = links.map(\.filter)
        choosers = links.map { live[ObjectIdentifier($0.filter)] ?? $0.chooser }
        current = chain
        self.generation = generation
    }
}
