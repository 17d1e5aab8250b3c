import CastProtocol
import FilterKit
import Synchronization

/// Studio mode's side of a session: the preview chain, which only controllers see, and the
/// takes that put it on air.
///
/// Commands change it on the network thread; the processing loop reads ``preview`` and
/// ``fadeFrom`` (`FilterSelection`s, like the program's) between frames, and the fade's progress.
public final class Studio: Sendable {
    /// The preview's chain as the processing loop applies it; `.none` while there is none.
    public let preview = FilterSelection()
    /// The program's chain before the take that fades from it.
    public let fadeFrom = FilterSelection()
    /// The preview's chain as the session tells it: nil until a command gives one.
    private let chain = Mutex<FilterChain?>(nil)
    /// Whether a viewer watched the preview's pictures at the last count of the audience.
    private let watched = Atomic<Bool>(false)
    /// The fade under way: when it started and how long it lasts.
    private let fade = Mutex<(start: ContinuousClock.Instant, length: Duration)?>(nil)
    /// Asks the processing loop to show the preview's outputs the current frame again (its chain
    /// changed, or warmed): the program's viewers are not sent it again.
    let rerender: RerenderRequest

    init(rerender: RerenderRequest) {
        self.rerender = rerender
    }

    /// The preview's chain; nil until a command gave it one.
    public var previewChain: FilterChain? { chain.withLock { $0 } }

    /// Replaces the preview's chain, and has the preview's current frame shown with it.
    func select(_ newChain: FilterChain) {
        chain.withLock { $0 = newChain }
        preview.select(newChain)
        rerender.request()
    }

    /// The audience changed: whether anybody watches the preview's pictures now. When the last
    /// one stops (nobody is in studio mode any more) the preview's chain is forgotten, so that
    /// the next to turn studio mode on starts from the program, not from an old preview. True
    /// when it was forgotten (the state changed).
    func watched(_ isWatched: Bool) -> Bool {
        let wasWatched = watched.exchange(isWatched, ordering: .relaxed)
        guard wasWatched && !isWatched, previewChain != nil else { return false }
        chain.withLock { $0 = nil }
        preview.select(FilterChain.none)
        return true
    }

    /// A take that fades from the program's `chain` over `seconds`, from `now`.
    func startFade(from chain: FilterChain, seconds: Double, at now: ContinuousClock.Instant) {
        fadeFrom.select(chain)
        fade.withLock { $0 = (now, .seconds(seconds)) }
    }

    /// Whether a fade is under way (its last frame not yet made, and not a second overdue: with
    /// nobody watching none is made): the processing loop then renders at the frame rate even
    /// while no frame comes (paused).
    func isFading(at now: ContinuousClock.Instant) -> Bool {
        fade.withLock { fade in fade.map { $0.start.duration(to: now) < $0.length + .seconds(1) } ?? false }
    }

    /// How far the fade is at `now`, 0…1 (the share of the new chain), nil when none is under
    /// way. The first answer of 1 ends the fade: the frame made then is the new chain's alone.
    func fadeProgress(at now: ContinuousClock.Instant) -> Double? {
        fade.withLock { fade in
            guard let (start, length) = fade else { return nil }
            let progress = min(max(start.duration(to: now) / length, 0), 1)
            if progress >= 1 { fade = nil }
            return progress
        }
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
