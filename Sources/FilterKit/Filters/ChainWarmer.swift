import Dispatch
import Synchronization

/// Readies new filters off the thread that applies the chain. A filter's first frame builds its
/// tables — 10–120 ms for the distortions and the cell filters — which would stall the stream
/// on every move of a slider; the warmer gives each new filter that first frame on a scratch
/// frame of the same size, on a background queue, while the runner goes on with the chain it
/// has. One chain is warmed at a time; a newer one replaces a chain still waiting.
final class ChainWarmer: Sendable {
    /// A chain to warm: its links (the reused ones already warm) and which of them are new.
    /// Its filters belong to whoever holds the job — the runner until `submit`, the warmer until
    /// `takeReady` hands it back — which is why it may cross threads.
    struct Job: @unchecked Sendable {
        let generation: Int
        let chain: FilterChain
        let links: [(filter: any FrameFilter, chooser: SplitChooser)]
        let fresh: [Int]
        let width: Int
        let height: Int
    }

    private struct State {
        var running = false
        var waiting: Job?
        var ready: Job?
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "filtercast.chain-warmer", qos: .utility)
    /// Only the queue touches it: the frame warm-ups run on, kept while the size stays.
    nonisolated(unsafe) private var scratch: Frame?
    private let onReady: @Sendable () -> Void

    /// `onReady` is called on the warmer's queue whenever a chain is ready to be taken.
    init(onReady: @escaping @Sendable () -> Void) {
        self.onReady = onReady
    }

    /// Warms `job` after the one in progress, replacing any chain still waiting.
    func submit(_ job: Job) {
        let start = state.withLock { state in
            state.waiting = job
            defer { state.running = true }
            return !state.running
        }
        if start { queue.async { self.drain() } }
    }

    /// The newest chain warmed since the last call, if any.
    func takeReady() -> Job? {
        state.withLock { state in
            defer { state.ready = nil }
            return state.ready
        }
    }

    private func drain() {
        while let job = state.withLock({ state -> Job? in
            defer { state.waiting = nil }
            if state.waiting == nil { state.running = false }
            return state.waiting
        }) {
            if scratch?.width != job.width || scratch?.height != job.height {
                scratch = Frame(width: job.width, height: job.height)
            }
            for index in job.fresh { job.links[index].filter.apply(to: scratch!) }
            state.withLock { $0.ready = job }
            onReady()
        }
    }
}
