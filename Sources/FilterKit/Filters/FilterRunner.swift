/// Applies the current ``FilterSelection`` on the one thread that owns it, link after link.
///
/// When the selection changes it rebuilds, between frames, only the links whose settings changed:
/// a link with the same settings as one of the previous chain keeps its built filter (tables,
/// scratch buffers), wherever it moved to, so dragging a slider of link 2 does not rebuild link 1.
public final class FilterRunner {
    public let selection: FilterSelection
    public let catalog: FilterCatalog
    private var filters: [any FrameFilter] = []
    /// Per link: whether splitting its frames pays (with more than one thread).
    private var choosers: [SplitChooser] = []
    private var generation = -1
    private let scheduler: BandScheduler
    private let clock = ContinuousClock()

    /// `threads` > 1 lets filters split each frame over that many threads (see ``BandScheduler``),
    /// for the links where that proves faster (``SplitChooser``).
    public init(selection: FilterSelection, catalog: FilterCatalog = .standard, threads: Int = 1) {
        self.selection = selection
        self.catalog = catalog
        scheduler = BandScheduler(threads: threads)
    }

    /// The chain used by the last `apply`.
    public private(set) var current: FilterChain = .none

    /// Which selection the last `apply` used: it changes exactly when the chain or a parameter
    /// did, so a caller can mark the first frame made with a new chain.
    public var appliedGeneration: Int { generation }

    public func apply(to frame: Frame) {
        let snapshot = selection.snapshot
        if snapshot.generation != generation {
            generation = snapshot.generation
            rebuild(for: snapshot.chain)
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

    private func rebuild(for chain: FilterChain) {
        var reusable = Array(zip(current.links, zip(filters, choosers)))
        let links = chain.links.map { settings in
            if let index = reusable.firstIndex(where: { $0.0 == settings }) {
                return reusable.remove(at: index).1
            }
            return (catalog.makeFilter(settings), SplitChooser())
        }
        filters = links.map(\.0)
        choosers = links.map(\.1)
        current = chain
    }
}
