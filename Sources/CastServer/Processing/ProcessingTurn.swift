import CastProtocol
import FilterKit
import MediaKit

/// The processing loop's own state and the execution of a ``FramePlan``: the filter runners (the
/// program's, the preview's and a fade's old chain, ``Chains``), a copy of the last source frame
/// (for re-renders, the second pictures and fades), a scratch frame, the placeholder and when the next
/// one is due. Processing thread only.
final class ProcessingTurn {
    private let runner: FilterRunner
    private let chains: Chains
    private let counters: ProcessingCounters
    /// Of the size of the last source frame: the session takes the size of what plays.
    private var lastSource: Frame
    private var work: Frame
    /// A second picture (the preview's, the source's), and a fade's old one.
    private var secondWork: Frame, fadeWork: Frame
    private let placeholder = PlaceholderRenderer()
    private(set) var hasLastFrame = false
    /// Offline: when the next placeholder is due (nil while online).
    private var nextPlaceholder: ContinuousClock.Instant?

    private let offlineReason: (PlaybackState) -> String?

    /// The chains besides the program's: the preview's, a fading take's old one, and what says
    /// whether the loop is late (a frame already waits), when the preview's frame is dropped.
    struct Chains {
        let studio: Studio
        let preview: FilterRunner
        let fadeFrom: FilterRunner
        let isLate: () -> Bool
    }

    init(width: Int, height: Int, runner: FilterRunner, chains: Chains, counters: ProcessingCounters,
         offlineReason: @escaping (PlaybackState) -> String?) {
        self.runner = runner
        self.chains = chains
        self.offlineReason = offlineReason
        self.counters = counters
        lastSource = Frame(width: width, height: height)
        work = Frame(width: width, height: height)
        secondWork = Frame(width: width, height: height)
        fadeWork = Frame(width: width, height: height)
    }

    /// How long to wait for the next frame: until the next placeholder is due while offline
    /// (10 ms … 0.5 s), else 0.5 s.
    var wait: Duration {
        nextPlaceholder.map { min(max(ContinuousClock.now.duration(to: $0), .milliseconds(10)), .milliseconds(500)) }
            ?? .milliseconds(500)
    }

    func placeholderDue(_ now: ContinuousClock.Instant) -> Bool { nextPlaceholder.map { $0 <= now } ?? true }

    /// After a turn: offline, the next placeholder is due when its countdown changes
    /// (``nextPlaceholder(after:retryAt:)``); online, the first one is due at once when the source drops.
    func placeholderShown(_ now: ContinuousClock.Instant, offline: Bool, retryAt: ContinuousClock.Instant?) {
        guard offline else { return nextPlaceholder = nil }
        if placeholderDue(now) { nextPlaceholder = Self.nextPlaceholder(after: now, retryAt: retryAt) }
    }

    /// When the placeholder drawn at `now` is next redrawn: where its "retrying in N s" changes
    /// (``RetryCountdown/nextChange(after:)``: the page's badge changes then too), else a second
    /// later.
    static func nextPlaceholder(after now: ContinuousClock.Instant, retryAt: ContinuousClock.Instant?) -> ContinuousClock.Instant {
        retryAt.flatMap { RetryCountdown(retryAt: $0).nextChange(after: now) } ?? now + .seconds(1)
    }

    /// Keeps an unfiltered copy of a new source frame for re-renders (its frames take the size
    /// of a source of another size, which the placeholder is then drawn at too).
    func keep(_ frame: Frame) {
        if frame.width != lastSource.width || frame.height != lastSource.height {
            (lastSource, work, secondWork, fadeWork) = (Frame(width: frame.width, height: frame.height),
                                                        Frame(width: frame.width, height: frame.height),
                                                        Frame(width: frame.width, height: frame.height),
                                                        Frame(width: frame.width, height: frame.height))
        }
        lastSource.copy(from: frame)
        hasLastFrame = true
    }

    /// Forgets the kept frame (it went stale: the player coasted while nothing consumed frames).
    func forgetLastFrame() { hasLastFrame = false }

    func execute(_ plan: FramePlan, frame: Frame?, playback: PlaybackState, outputs: [any FrameOutput]) {
        switch plan {
        case .idle:
            break
        case .deliver(let source, let filtered, let second):
            guard let frame else { return }
            hand(frame, .new, filtered: false, to: source, of: outputs)
            if !filtered.isEmpty {
                filter(frame)
                hand(frame, .new, filtered: true, to: filtered, of: outputs)
            }
            handSecond(.new, second, of: outputs)
        case .rerender(let source, let filtered, let second):
            work.copy(from: lastSource)
            work.isDiscontinuity = false
            hand(work, .rerender, filtered: false, to: source, of: outputs)
            if !filtered.isEmpty {
                filter(work)
                hand(work, .rerender, filtered: true, to: filtered, of: outputs)
            }
            handSecond(.rerender, second, of: outputs)
        case .placeholder(let indices):
            placeholder.render(title: "NO SIGNAL", details: Self.placeholderDetails(playback, reason: offlineReason(playback), now: .now),
                               into: work)
            work.time = playback.position
            work.isDiscontinuity = false
            hand(work, .placeholder, filtered: false, to: indices, of: outputs)
        }
    }

    private func hand(_ frame: Frame, _ kind: FrameContext.Kind, filtered: Bool, to indices: [Int], of outputs: [any FrameOutput],
                      generation: Int? = nil) {
        let context = FrameContext(kind: kind, isFiltered: filtered, filterGeneration: generation ?? runner.appliedGeneration)
        for index in indices { outputs[index].take(frame, context) }
    }

    /// The second pictures, after the program's outputs: the last source frame as it is to the
    /// source's outputs, then through the preview's chain to the preview's. A new preview frame is
    /// not made at all when the next frame already waits: the preview drops frames first
    /// (counted), the program never waits for it. The source's picture costs no filter and the
    /// compare view pairs it with the program's frame of the same time, so it is never dropped.
    private func handSecond(_ kind: FrameContext.Kind, _ second: [SecondPicture: [Int]], of outputs: [any FrameOutput]) {
        // The source's first: it is never dropped, and the time the preview takes never delays it.
        for picture in [SecondPicture.source, .preview] {
            guard let indices = second[picture], !indices.isEmpty else { continue }
            if picture == .preview && kind == .new && chains.isLate() {
                counters.droppedPreviewLate.increment()
                continue
            }
            secondWork.copy(from: lastSource)
            secondWork.isDiscontinuity = secondWork.isDiscontinuity && kind == .new
            // The source's picture has no chain: its filter generation never changes.
            var generation = 0
            if picture == .preview {
                chains.preview.apply(to: secondWork)
                generation = chains.preview.appliedGeneration
            }
            hand(secondWork, kind, filtered: picture == .preview, to: indices, of: outputs, generation: generation)
        }
    }

    /// Filters `frame` (the last source frame, or a copy of it) in place with the program's
    /// chain (timed and counted); during a fading take, mixes the old chain's picture into it.
    private func filter(_ frame: Frame) {
        counters.filterTime.time {
            runner.apply(to: frame)
            counters.styleRefreshMillihertz.set(runner.refreshRate.map { Int(($0 * 1000).rounded()) } ?? -1)
            guard let progress = chains.studio.fadeProgress(at: .now), progress < 1 else { return }
            fadeWork.copy(from: lastSource)
            chains.fadeFrom.apply(to: fadeWork)
            CrossFade.mix(fadeWork, into: frame, progress: progress)
        }
        counters.framesFiltered.increment()
    }
}

extension ProcessingTurn {
    /// The placeholder's lines under "NO SIGNAL": the reason, then the countdown to the next
    /// attempt, or for a file that failed (nothing retries it) what brings the picture back.
    static func placeholderDetails(_ playback: PlaybackState, reason: String?, now: ContinuousClock.Instant) -> [String] {
        let countdown = playback.retryAt.map { "retrying in \(RetryCountdown(retryAt: $0).shown(at: now)) s" }
        let next = playback.error != nil ? "open a file or go back to the input" : "reconnecting…"
        return [reason ?? "the source failed", countdown ?? next]
    }
}
