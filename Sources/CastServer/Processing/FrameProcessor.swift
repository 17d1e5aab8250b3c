import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Synchronization

/// The processing thread: one loop that takes each paced frame from the player, asks every
/// output what it wants (``FrameOutput/demand(now:)``), decides the turn once (``FramePlan``),
/// filters at most once, and hands each output the frame it asked for. Adding an output is a
/// type and a line of wiring, not a branch here.
///
/// It tells the player whether any output is active (``Player/setConsumersPresent(_:holdingLiveInput:)``), so that a
/// file nobody watches, records or publishes is not decoded: the clock runs on, and a returning
/// viewer gets the frame at the clock's position; a live input is closed after `--idle-close`.
///
/// It keeps an unfiltered copy of the last frame, so that a filter change or a new viewer while
/// paused can be shown at once (``RerenderRequest``). While a live source is offline it renders a
/// placeholder once a second instead (``PlaceholderRenderer``: "NO SIGNAL", the reason, the retry
/// countdown), unfiltered so that the text stays readable whatever filter is chosen, for the
/// outputs that show one.
final class FrameProcessor: Sendable {
    private let player: Player
    private let selection: FilterSelection
    /// The preview's chain and a fading take's (studio mode).
    private let studio: Studio
    private let catalog: FilterCatalog
    private let filterThreads: Int
    let rerender: RerenderRequest
    let counters: ProcessingCounters
    /// Processing thread only after `start()`; the outputs are its.
    nonisolated(unsafe) private let outputs: [any FrameOutput]
    private let stopping = Atomic<Bool>(false)
    nonisolated(unsafe) private var thread: WorkerThread?

    /// Why the source is offline, as clients know it (for the placeholder).
    private let offlineReason: @Sendable (PlaybackState) -> String?
    /// Told the size of every source frame before the outputs get it (the renditions follow it).
    private let sourceSize: @Sendable (_ width: Int, _ height: Int) -> Void

    init(player: Player, selection: FilterSelection, studio: Studio, catalog: FilterCatalog, outputs: [any FrameOutput],
         rerender: RerenderRequest, counters: ProcessingCounters, filterThreads: Int,
         offlineReason: @escaping @Sendable (PlaybackState) -> String?,
         sourceSize: @escaping @Sendable (_ width: Int, _ height: Int) -> Void = { _, _ in }) {
        self.player = player
        self.sourceSize = sourceSize
        self.offlineReason = offlineReason
        self.selection = selection
        self.studio = studio
        self.catalog = catalog
        self.outputs = outputs
        self.rerender = rerender
        self.counters = counters
        self.filterThreads = filterThreads
    }

    func start() {
        thread = WorkerThread(name: "process") { [self] in run() }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        player.output.close()
        thread?.join()
        thread = nil
    }

    private func run() {
        let info = player.info
        // A new chain warms in the background; once ready it shows at once (a re-render of the
        // last frame), whether or not another frame is coming (paused, ended, a stalled stream).
        let runner = FilterRunner(selection: selection, catalog: catalog, threads: filterThreads,
                                  onChainReady: { [rerender] in rerender.request() })
        // The preview's chain warms like the program's; a fade's old chain was the program's a
        // moment ago and applies at once.
        let chains = ProcessingTurn.Chains(
            studio: studio,
            preview: FilterRunner(selection: studio.preview, catalog: catalog, onChainReady: { [studio] in studio.rerender.request() }),
            fadeFrom: FilterRunner(selection: studio.fadeFrom, catalog: catalog),
            isLate: { [player] in player.output.waiting > 0 })
        let turn = ProcessingTurn(width: info.width, height: info.height, runner: runner, chains: chains, counters: counters,
                                  offlineReason: offlineReason)
        var told: (present: Bool, holding: Bool)?
        var servedRerenders = 0, servedPreviewRerenders = 0
        while !stopping.load(ordering: .acquiring) {
            // Nothing active: nothing is due but what a poke brings (a viewer, a recording, a
            // command), so the loop looks only every `idleWait`. A fade goes on at the frame rate
            // even while no frame comes (paused).
            let fading = studio.isFading(at: .now)
            let wait = told?.present == false ? Self.idleWait : turn.wait
            let frame = player.output.take(timeout: fading ? min(wait, .milliseconds(40)) : wait)
            // Before the demands: a request made after them waits for the next turn.
            let rerenders = rerender.count, previewRerenders = studio.rerender.count
            let now = ContinuousClock.now
            let demands = outputs.map { $0.demand(now: now) }
            // Snapshots alone take frames but keep no live input open.
            let consumers = (present: demands.contains(where: \.isActive), holding: demands.contains { $0.isActive && !$0.onlySnapshots })
            if told.map({ $0 != consumers }) ?? true {
                told = consumers
                // The player coasted: the frame at the clock's position is on its way, and the one
                // kept is stale — no re-render of it (a snapshot must get the fresh one).
                if player.setConsumersPresent(consumers.present, holdingLiveInput: consumers.holding) { turn.forgetLastFrame() }
            }
            let playback = player.playbackState
            let situation = FramePlan.Situation(
                hasFrame: frame != nil, isOnline: playback.isOnline, placeholderDue: turn.placeholderDue(now),
                rerenderRequested: frame == nil && (rerenders != servedRerenders || fading),
                previewRerenderRequested: frame == nil && previewRerenders != servedPreviewRerenders, hasLastFrame: turn.hasLastFrame)
            let plan = FramePlan.make(situation, demands: demands)
            if let frame {
                count(declined: demands)
                turn.keep(frame)
                sourceSize(frame.width, frame.height)
            }
            turn.execute(plan, frame: frame, playback: playback, outputs: outputs)
            // A turn without a frame serves the requests (whatever it did); a fresh filtered frame
            // shows the change by itself; one that nobody filtered does not.
            let served = switch plan {
            case .deliver(_, let filtered, let second): (program: !filtered.isEmpty, preview: second[.preview] != nil)
            default: (program: true, preview: true)
            }
            if served.program { servedRerenders = rerenders }
            if served.preview { servedPreviewRerenders = previewRerenders }
            turn.placeholderShown(now, offline: frame == nil && !playback.isOnline, retryAt: playback.retryAt)
            if let frame { player.frameOut(frame); player.pool.recycle(frame) }  // frameOut: a step's or a seek's ack may go
        }
    }

    /// How long the loop waits for a frame while no output is active: whatever makes one active
    /// pokes it (``RerenderRequest``, ``ServerCore/audienceChanged(_:)``), so this is a safety
    /// net, and an idle channel's loop wakes less than once a second.
    static let idleWait: Duration = .seconds(2)

    /// Counts, for a frame that arrived, the outputs that passed on it and why.
    private func count(declined demands: [OutputDemand]) {
        for demand in demands {
            switch demand.declines {
            case .noAudience: counters.droppedNoViewers.increment()
            case .maximumRate: counters.droppedMaxFPS.increment()
            case nil: break
            }
        }
    }
}
