import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Synchronization

/// The processing thread: takes each paced frame from the player, and — when anybody watches —
/// filters it once, encodes it once, and publishes it to the broadcaster. A running recording
/// gets every frame, filtered or as the source gave it, and the publisher (`--publish`) every
/// filtered frame (both copy it and return).
///
/// It tells the player whether anything consumes frames — viewers, MJPEG readers, waiting
/// snapshots, a recording, the publisher — so that a file nobody watches is not decoded
/// (``Player/setConsumersPresent(_:)``); the clock runs on and a returning viewer gets the
/// frame at the clock's position.
///
/// It keeps an unfiltered copy of the last frame, so that a filter change or a new viewer while
/// paused can be shown at once. While a live source is offline it publishes a placeholder once a
/// second instead (``PlaceholderRenderer``: "NO SIGNAL", the reason, the retry countdown),
/// unfiltered so that the text stays readable whatever filter is chosen, published (`--publish`)
/// but not recorded.
final class FrameProcessor: Sendable {
    private let session: Session
    private let broadcaster: Broadcaster
    private let quality: Int
    private let filterThreads: Int
    private let minimumInterval: Duration?
    /// Viewers, MJPEG readers and waiting snapshots: with none, nothing is encoded. Whoever
    /// raises it from 0 pokes the thread, which then tells the player at once.
    let audience = Atomic<Int>(0)
    private let stopping = Atomic<Bool>(false)
    private let rate = Mutex(FrameRate())
    let counters = ProcessingCounters()
    nonisolated(unsafe) private var thread: WorkerThread?

    init(session: Session, broadcaster: Broadcaster, quality: Int, maxFPS: Double?, filterThreads: Int) {
        self.session = session
        self.broadcaster = broadcaster
        self.quality = quality
        self.filterThreads = filterThreads
        minimumInterval = maxFPS.map { .nanoseconds(Int64(1e9 / $0)) }
    }

    /// Frames encoded per second, over the last second.
    var fps: Double { rate.withLock { $0.perSecond(now: .now) } }

    func start() {
        thread = WorkerThread(name: "process") { [self] in run() }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        session.player.output.close()
        thread?.join()
        thread = nil
    }

    /// Wakes the thread to re-render the current frame (it checks `rerenderRequested`).
    func poke() {
        session.player.output.poke()
    }

    /// Whether anything takes frames now: an audience, a running recording, the publisher.
    private var consumersPresent: Bool {
        audience.load(ordering: .relaxed) > 0 || session.publisher != nil
            || session.recorder.map { $0.wants(filtered: true) || $0.wants(filtered: false) } == true
    }

    private func run() {
        let info = session.player.info
        // A new chain warms in the background; once ready it shows at once (a re-render of the
        // last frame), whether or not another frame is coming (paused, ended, a stalled stream).
        let runner = FilterRunner(selection: session.selection, catalog: session.catalog, threads: filterThreads,
                                  onChainReady: { [self] in
                                      session.rerenderRequested.store(true, ordering: .releasing)
                                      poke()
                                  })
        let lastSource = Frame(width: info.width, height: info.height)
        let work = Frame(width: info.width, height: info.height)
        var haveSource = false
        var sequence: UInt64 = 0
        // What the last published frame was made with: a change in either flags the next frame.
        var renderedFilter = -1
        var renderedTransport = -1
        var lastEncode: ContinuousClock.Instant?
        // Offline: when the next placeholder is due (nil while online).
        var nextPlaceholder: ContinuousClock.Instant?
        var renderedOnline = true
        let placeholder = PlaceholderRenderer()
        guard let encoder = try? JPEGEncoder(width: info.width, height: info.height, quality: quality) else { return }
        let output = session.player.output
        var toldConsumersPresent: Bool?

        /// Filters `frame` in place (timed and counted).
        func filter(_ frame: Frame) {
            counters.filterTime.time { runner.apply(to: frame) }
            counters.framesFiltered.increment()
        }

        /// Encodes and publishes `frame`, already filtered (or a placeholder: not `online`).
        func publish(_ frame: Frame, online: Bool = true) {
            let transport = session.transportGeneration.load(ordering: .relaxed)
            let changed = frame.isDiscontinuity || runner.appliedGeneration != renderedFilter
                || transport != renderedTransport || online != renderedOnline
            sequence += 1
            // A frame the encoder refuses (it cannot happen with our own frames) is not published.
            do {
                try broadcaster.publish { buffer in
                    buffer.jpegCount = try counters.encodeTime.time {
                        try encoder.encode(frame, into: buffer.jpegDestination)
                    }
                    buffer.header = FrameHeader(flags: changed ? .stateChanged : [], sequence: sequence,
                                                presentationTime: Int64((frame.time * 1e6).rounded()), sendTime: 0)
                    buffer.header.write(to: buffer.payload)
                }
                counters.framesEncoded.increment()
            } catch {
                counters.droppedEncodeFailed.increment()
            }
            renderedFilter = runner.appliedGeneration
            renderedTransport = transport
            renderedOnline = online
            rate.withLock { $0.record(.now) }
        }

        while !stopping.load(ordering: .acquiring) {
            let wait = nextPlaceholder.map { min(max(ContinuousClock.now.duration(to: $0), .milliseconds(10)), .milliseconds(500)) }
            let frame = output.take(timeout: wait ?? .milliseconds(500))
            let consumers = consumersPresent
            if consumers != toldConsumersPresent {
                toldConsumersPresent = consumers
                // The player coasted: the frame at the clock's position is on its way, and the last
                // one kept is stale — no re-render of it (a snapshot must get the fresh one).
                if session.player.setConsumersPresent(consumers) { haveSource = false }
            }
            let playback = session.player.playbackState
            if frame == nil, !playback.isOnline {
                let due = nextPlaceholder.map { $0 <= .now } ?? true
                let rerender = session.rerenderRequested.exchange(false, ordering: .acquiring)
                let watched = audience.load(ordering: .relaxed) > 0
                if (watched || session.publisher != nil) && (due || rerender) {
                    let details = Self.placeholderDetails(playback, reason: session.offlineReason(playback))
                    placeholder.render(title: "NO SIGNAL", details: details, into: work)
                    work.time = playback.position
                    work.isDiscontinuity = false
                    if watched { publish(work, online: false) }
                    session.publisher?.publish(work)
                }
                if due { nextPlaceholder = .now + .seconds(1) }
                continue
            }
            nextPlaceholder = nil
            if let frame {
                lastSource.copy(from: frame)
                haveSource = true
                session.recorder?.record(frame, filtered: false)
                let due = minimumInterval.map { interval in lastEncode.map { $0.duration(to: .now) >= interval } ?? true } ?? true
                let recordFiltered = session.recorder?.wants(filtered: true) == true
                let publisher = session.publisher
                // Read once: the frame published must be the frame filtered.
                let watched = audience.load(ordering: .relaxed) > 0
                if (watched && due) || recordFiltered || publisher != nil {
                    filter(frame)
                    if recordFiltered { session.recorder?.record(frame, filtered: true) }
                    publisher?.publish(frame)
                }
                if !watched {
                    counters.droppedNoViewers.increment()
                } else if !due {
                    counters.droppedMaxFPS.increment()
                } else {
                    session.rerenderRequested.store(false, ordering: .relaxed)
                    lastEncode = .now
                    publish(frame)
                }
                session.player.pool.recycle(frame)
            } else if session.rerenderRequested.exchange(false, ordering: .acquiring), haveSource,
                      audience.load(ordering: .relaxed) > 0 || session.publisher != nil {
                // Paused: a filter change shows at once, to the viewers and in the published
                // stream (which repeats its last frame while paused).
                work.copy(from: lastSource)
                work.isDiscontinuity = false
                filter(work)
                if audience.load(ordering: .relaxed) > 0 { publish(work) }
                session.publisher?.publish(work)
            }
        }
    }
}

extension FrameProcessor {
    /// The placeholder's lines under "NO SIGNAL": the reason, then the countdown to the next
    /// attempt, or for a file that failed (nothing retries it) what brings the picture back.
    static func placeholderDetails(_ playback: PlaybackState, reason: String?) -> [String] {
        let countdown = playback.retryAt.map { "retrying in \(Int(max(0, ContinuousClock.now.duration(to: $0).seconds).rounded(.up))) s" }
        let next = playback.error != nil ? "open a file to go on" : "reconnecting…"
        return [reason ?? "the source failed", countdown ?? next]
    }
}

/// Counts events in a sliding one-second window.
struct FrameRate {
    private var times: [ContinuousClock.Instant] = []

    mutating func record(_ instant: ContinuousClock.Instant) {
        if times.count >= 240 { times.removeFirst(times.count - 239) }
        times.append(instant)
    }

    mutating func perSecond(now: ContinuousClock.Instant) -> Double {
        times.removeAll { $0.duration(to: now) > .seconds(1) }
        return Double(times.count)
    }
}
