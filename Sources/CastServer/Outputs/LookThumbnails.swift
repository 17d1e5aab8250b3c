import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Synchronization

/// The Looks panel's thumbnails of one channel: each asked-for look applied to the channel's
/// current source picture (unfiltered), small (``width`` wide), as a JPEG.
///
/// `GET /api/looks/NAME/thumbnail.jpg` asks (``thumbnail(of:now:)``, network thread): a
/// thumbnail rendered from a source picture less than ``freshness`` old is served from the
/// cache; otherwise the look is queued and the output asks the processing loop for the next
/// source frame (or the last one again, when paused), on whose thread (``take(_:_:)``) every
/// queued look is rendered at once — filtering never runs on the network thread — and an older
/// thumbnail, if any, is served meanwhile. Bounded: at most ``LookFolder/capacity`` looks queued
/// and cached, some 5 KB each; the work is one scale and, per look asked, a small filter pass and
/// encode.
final class LookThumbnails: FrameOutput, Sendable {
    static let width = 192
    static let freshness: Duration = .seconds(2)

    private struct Entry {
        let chain: [FilterLinkRequest]
        let jpeg: [UInt8]
        let at: ContinuousClock.Instant
    }

    private struct State {
        var queued: [String: [FilterLinkRequest]] = [:]
        var cache: [String: Entry] = [:]
    }

    private let state = Mutex(State())
    private let catalog: FilterCatalog
    private let rerender: RerenderRequest
    let size: (width: Int, height: Int)
    // Processing thread only.
    /// Frames of another size than the first source's (another source plays) are fitted in.
    nonisolated(unsafe) private let fitter: FrameFitter
    private let small: Frame
    private let scratch: Frame
    nonisolated(unsafe) private let encoder: JPEGEncoder

    /// For a channel of `source`-sized frames; nil when it cannot encode at that shape.
    init?(source: (width: Int, height: Int), catalog: FilterCatalog, rerender: RerenderRequest) {
        let height = max(2, (Self.width * source.height / max(1, source.width) + 1) / 2 * 2)
        guard let encoder = try? JPEGEncoder(width: Self.width, height: height, quality: 75) else { return nil }
        size = (Self.width, height)
        fitter = FrameFitter(width: Self.width, height: height)
        self.encoder = encoder
        small = Frame(width: Self.width, height: height)
        scratch = Frame(width: Self.width, height: height)
        self.catalog = catalog
        self.rerender = rerender
    }

    /// The look `look`'s thumbnail: a fresh one, else (queued for the next picture) an older one
    /// of the same chain, else nil — the caller answers "not yet". Network thread.
    func thumbnail(of look: Look, now: ContinuousClock.Instant) -> [UInt8]? {
        let (answer, asks) = state.withLock { state -> ([UInt8]?, Bool) in
            let cached = state.cache[look.name].flatMap { $0.chain == look.chain ? $0 : nil }
            if let cached, now - cached.at < Self.freshness { return (cached.jpeg, false) }
            guard state.queued.count < LookFolder.capacity || state.queued[look.name] != nil else { return (cached?.jpeg, false) }
            state.queued[look.name] = look.chain
            return (cached?.jpeg, true)
        }
        if asks { rerender.request() }
        return answer
    }

    func demand(now: ContinuousClock.Instant) -> OutputDemand {
        guard state.withLock({ !$0.queued.isEmpty }) else { return .none }
        return OutputDemand(source: true, rerender: true, isActive: true)
    }

    /// A source frame: every queued look rendered from it. Processing thread.
    func take(_ frame: Frame, _ context: FrameContext) {
        guard context.kind != .placeholder else { return }
        let queued = state.withLock { state in
            defer { state.queued.removeAll(keepingCapacity: true) }
            return state.queued
        }
        guard !queued.isEmpty else { return }
        fitter.fit(frame, into: small)
        let now = ContinuousClock.now
        var rendered: [String: Entry] = [:]
        for (name, chain) in queued {
            guard let jpeg = render(chain) else { continue }
            rendered[name] = Entry(chain: chain, jpeg: jpeg, at: now)
        }
        state.withLock { state in
            state.cache.merge(rendered) { $1 }
            // Looks deleted or renamed leave their entries: the oldest go beyond the bound.
            while state.cache.count > LookFolder.capacity, let oldest = state.cache.min(by: { $0.value.at < $1.value.at }) {
                state.cache[oldest.key] = nil
            }
        }
    }

    /// `chain` applied to the small picture, encoded; nil when the catalog refuses it (a LUT
    /// deleted since: the look's apply says why).
    private func render(_ chain: [FilterLinkRequest]) -> [UInt8]? {
        guard let validated = try? FilterChain(validating: chain.map(\.unvalidated), catalog: catalog) else { return nil }
        scratch.copy(from: small)
        for link in validated.links { catalog.makeFilter(link).apply(to: scratch) }
        return try? encoder.encode(scratch)
    }
}
