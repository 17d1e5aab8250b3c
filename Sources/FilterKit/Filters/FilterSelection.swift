import Synchronization

/// The filter chain shared between the thread that changes it (commands) and the thread that
/// applies it (the pipeline). Changes take effect at the next frame boundary.
public final class FilterSelection: Sendable {
    private let state: Mutex<(chain: FilterChain, generation: Int)>

    public init(_ chain: FilterChain = .none) {
        state = Mutex((chain, 0))
    }

    /// A selection of one filter (`none`: no filter).
    public convenience init(_ settings: FilterSettings) {
        self.init(FilterChain(settings))
    }

    public var chain: FilterChain { state.withLock { $0.chain } }

    /// Replaces the current chain; the pipeline picks it up before its next frame.
    public func select(_ chain: FilterChain) {
        state.withLock { $0 = (chain, $0.generation + 1) }
    }

    /// The chain and a counter that changes with every `select`.
    var snapshot: (chain: FilterChain, generation: Int) { state.withLock { $0 } }
}
