import CastProtocol
import FilterKit
import Synchronization

/// Studio mode's side of a session: the preview chain, which only controllers see, and the
/// takes that put it on air.
///
/// Commands change it on the network thread; the processing loop reads ``preview`` (a
/// `FilterSelection`, like the program's) between frames.
public final class Studio: Sendable {
    /// The preview's chain as the processing loop applies it; `.none` while there is none.
    public let preview = FilterSelection()
    /// The preview's chain as the session tells it: nil until a command gives one.
    private let chain = Mutex<FilterChain?>(nil)

    public init() {}

    /// The preview's chain; nil until a command gave it one.
    public var previewChain: FilterChain? { chain.withLock { $0 } }

    /// Replaces the preview's chain.
    func select(_ newChain: FilterChain) {
        chain.withLock { $0 = newChain }
        preview.select(newChain)
    }

    /// The preview's chain for a `take` or a `setParams` to it, or the error that says there is none.
    func requireChain(for command: String) throws(ProtocolError) -> FilterChain {
        guard let chain = previewChain else {
            throw ProtocolError(code: .invalidArgument,
                                message: "\(command): the preview has no chain yet — send setFilter with \"to\": \"preview\" first")
        }
        return chain
    }
}
