import Synchronization

/// The filter choice shared between the thread that changes it (commands) and the thread that
/// applies it (the pipeline). Changes take effect at the next frame boundary.
public final class FilterSelection: Sendable {
    private let state: Mutex<(settings: FilterSettings, generation: Int)>

    public init(_ settings: FilterSettings = .none) {
        state = Mutex((settings, 0))
    }

    public var settings: FilterSettings { state.withLock { $0.settings } }

    /// Replaces the current settings; the pipeline picks them up before its next frame.
    public func select(_ settings: FilterSettings) {
        state.withLock { $0 = (settings, $0.generation + 1) }
    }

    /// The settings and a counter that changes with every `select`.
    var snapshot: (settings: FilterSettings, generation: Int) { state.withLock { $0 } }
}

/// Applies the current ``FilterSelection`` on the one thread that owns it, rebuilding the filter
/// only when the selection changed since the previous frame.
public final class FilterRunner {
    public let selection: FilterSelection
    public let catalog: FilterCatalog
    private var filter: any FrameFilter = NoFilter(settings: .none)
    private var generation = -1
    private let scheduler: BandScheduler

    /// `threads` > 1 lets row-local filters split each frame into that many bands.
    public init(selection: FilterSelection, catalog: FilterCatalog = .standard, threads: Int = 1) {
        self.selection = selection
        self.catalog = catalog
        scheduler = BandScheduler(threads: threads)
    }

    /// The settings used by the last `apply`.
    public private(set) var current: FilterSettings = .none

    /// Which selection the last `apply` used: it changes exactly when the filter did, so a caller
    /// can mark the first frame made with a new filter.
    public var appliedGeneration: Int { generation }

    public func apply(to frame: Frame) {
        let snapshot = selection.snapshot
        if snapshot.generation != generation {
            generation = snapshot.generation
            current = snapshot.settings
            filter = catalog.makeFilter(snapshot.settings)
        }
        scheduler.apply(filter, to: frame)
    }
}
