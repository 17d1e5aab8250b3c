import FilterKit
import Foundation
import Logging
import Telemetry

/// Plays a source in real time on its own decode thread: paces frames by their timestamps,
/// pauses, seeks frame-accurately, loops or stops at the end, and hands each frame to `output`.
///
/// Failures do not stop it. A live source given a `reopen` goes offline (`isOnline` false, with
/// the reason and the next attempt's time in ``playbackState``) and is opened again after the
/// delays of ``RetryPolicy`` until it delivers frames again. A file whose read fails mid-way is
/// skipped one second past the failure. A file found deleted, replaced or truncated (checked at
/// the end, on a seek and after a read error) stops playback with the error and goes offline
/// (`isOnline` false, the error as the reason) until another source is switched to.
///
/// A file that nobody watches is not decoded (see ``setConsumersPresent(_:)``): its clock runs
/// on, and when consumers come back the frame at the clock's position is delivered at once.
///
/// Control calls (`play`, `pause`, `seek`, `switchSource`, `stop`) are safe from any thread and
/// take effect at once: a seek while paused delivers the exact frame immediately, and a player
/// paused before its first frame (or before the first frame after a reconnection) still
/// delivers that one frame, as a native player shows its first picture. Frames go to
/// `output`, a latest-wins queue: whoever takes them recycles them into `pool` when done.
public final class Player: @unchecked Sendable {
    public let pool: FramePool
    /// Where decoded frames go; the consumer takes from it and recycles into `pool`.
    public let output: FrameQueue
    /// Frames the source gave (reads and seeks).
    public let framesDecoded = Counter()
    /// Frames pushed out of `output` by a newer one before the consumer took them.
    public let framesSuperseded = Counter()

    // Guarded by `condition`: commands in, state out.
    private let condition = NSCondition()
    private var state: PlaybackState
    private var pendingSeek: Double?
    private var stopping = false
    private var speedChanged = false
    /// Whether anything takes the frames (see `setConsumersPresent`).
    private var consumersPresent = true
    /// The decode thread let the clock run on without decoding: the decoder is behind
    /// `state.position`, and the next consumer gets the frame there from a seek.
    private var coasting = false
    private var sourceInfo: SourceInfo
    /// A source waiting to replace the current one (see `switchSource`).
    private var pendingSource: PendingSource?
    /// The current source's; a switch replaces it.
    private var interruption: Interruption

    private var thread: WorkerThread?
    /// Only the decode thread touches the source (and replaces it on reconnection) after `start()`.
    /// Nil only while a failed live source is being reopened (it is closed first: a UDP port,
    /// say, must be free to be bound again).
    nonisolated(unsafe) private var source: (any VideoSource)? {
        didSet {
            source?.routeAudio(to: audioQueue)
            let audio = source?.info.audio
            update { _ in sourceAudio = audio }
        }
    }
    /// Where every source's sound goes (see ``VideoSource/routeAudio(to:)``); nil: nowhere.
    private let audioQueue: AudioPacketQueue?
    /// The sound of the source that plays now (guarded by `condition`).
    private var sourceAudio: AudioStreamInfo?
    /// Decode thread only: how to open the current source again when it is live and fails.
    nonisolated(unsafe) private var reopen: SourceOpener?
    /// Decode thread only: the reconnection delays, reset by every frame delivered.
    nonisolated(unsafe) private var retry = RetryPolicy()
    /// Decode thread only: when a live source went offline, until its next frame (to log its return).
    nonisolated(unsafe) private var offlineSince: ContinuousClock.Instant?
    private let loops: Bool

    /// Opens nothing: `source` was opened by the caller (errors surface there). Call `start()`.
    /// `reopen` opens a live source again after it fails: it must give frames of the same size
    /// and share the source's ``Interruption`` (see ``InputSpec/reopener(_:width:height:)``).
    /// The sound of every source it plays goes to `audio`, read with the pictures.
    public init(source: any VideoSource, options: PlaybackOptions = PlaybackOptions(),
                output: FrameQueue = FrameQueue(capacity: 1, policy: .latestWins), reopen: SourceOpener? = nil,
                audio: AudioPacketQueue? = nil) {
        self.source = source
        audioQueue = audio
        sourceAudio = source.info.audio
        self.reopen = source.info.isLive ? reopen : nil
        sourceInfo = source.info
        interruption = source.interruption
        self.loops = options.loops
        self.output = output
        pool = FramePool(width: source.info.width, height: source.info.height, capacity: options.poolCapacity)
        state = PlaybackState(duration: source.info.duration, isLive: source.info.isLive, speed: options.speed)
    }

    /// Starts the decode thread.
    public func start() {
        precondition(thread == nil, "a player starts once")
        thread = WorkerThread(name: "decode") { [self] in run() }
    }

    /// The current source's.
    public var info: SourceInfo {
        condition.lock()
        defer { condition.unlock() }
        return sourceInfo
    }

    /// The sound of the source that plays now (nil: none, or none open: being opened, reconnecting).
    public var audio: AudioStreamInfo? {
        condition.lock()
        defer { condition.unlock() }
        return sourceAudio
    }

    /// Stops the decode thread and closes `output`, also when a read is blocked on a stalled
    /// stream. Idempotent.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        let interruption = interruption
        condition.unlock()
        interruption.interrupt()
        output.close()
        thread?.join()
        thread = nil
    }

    public var playbackState: PlaybackState {
        condition.lock()
        defer { condition.unlock() }
        return state
    }

    public func play() {
        update {
            if $0.hasEnded { $0.hasEnded = false; pendingSeek = 0 }
            $0.isPlaying = true
        }
    }

    public func pause() { update { $0.isPlaying = false } }

    public func setSpeed(_ speed: Double) throws(MediaError) {
        guard PlaybackOptions.speedRange.contains(speed) else {
            throw .invalidInput("speed must be in \(PlaybackOptions.speedRange.lowerBound)…\(PlaybackOptions.speedRange.upperBound), got \(speed)")
        }
        update { $0.speed = speed; speedChanged = true }
    }

    /// Seeks to `seconds`: the first frame at or after it; at or past the declared duration
    /// (a seek slider at its end), the last frame, wherever it really is (a file without an
    /// index declares the length it could read, which may end before its last frame). Live
    /// sources refuse.
    public func seek(to seconds: Double) throws(MediaError) {
        guard !info.isLive else { throw .notSeekable(input: info.name) }
        guard seconds.isFinite, seconds >= 0 else {
            throw .seekFailed(input: info.name, seconds: seconds, reason: "the position must be a number ≥ 0")
        }
        let target = info.duration.map { seconds >= $0 ? max(seconds, $0 + Self.pastTheEnd) : seconds } ?? seconds
        update { $0.hasEnded = false; pendingSeek = target }
    }

    /// How far past the declared end a seek to the end aims: more than a file holds beyond it.
    static let pastTheEnd = 3600.0

    /// Plays `newSource` from its start instead of the current source, which is closed. Its
    /// frames must be of the pool's size (open it with that `outputSize`). Playing or paused
    /// stays as it was (after a failure: playing); position, duration and `info` become the new
    /// source's, and its first frame is delivered (marked as a discontinuity) at once. A live
    /// `newSource` is reconnected with `reopen` when it fails, as in `init`.
    public func switchSource(to newSource: any VideoSource, reopen: SourceOpener? = nil) throws(MediaError) {
        if let mismatch = sizeMismatch(newSource.info) { throw mismatch }
        beginSwitch(to: .opened(newSource, reopen: newSource.info.isLive ? reopen : nil), info: newSource.info,
                    interruption: newSource.interruption)
    }

    /// Plays the source `open` opens instead of the current one, from its start, opening it on
    /// the decode thread once the current one is closed (a stream or a camera may take seconds
    /// to answer, and a UDP port or a camera must be free before it opens again). `info`
    /// describes it until then; `open` must give frames of the pool's size and break its reads
    /// on `interruption`. Playing or paused as in `switchSource(to:)`. When the opening fails, a
    /// live source is retried with `open` as a reconnection is; a file stops playback with the
    /// error (offline, as a file that failed).
    public func switchSource(opening open: @escaping SourceOpener, info: SourceInfo, interruption: Interruption) {
        beginSwitch(to: .opening(open, isLive: info.isLive), info: info, interruption: interruption)
    }

    /// Makes `pending` the next source, described by `newInfo`, and breaks the current one's
    /// blocking read (before the decode thread can begin to open `pending`, which may share
    /// `newInterruption` with it).
    private func beginSwitch(to pending: PendingSource, info newInfo: SourceInfo, interruption newInterruption: Interruption) {
        condition.lock()
        interruption.interrupt()
        pendingSource = pending
        pendingSeek = nil
        interruption = newInterruption
        sourceInfo = newInfo
        state.duration = newInfo.duration
        state.isLive = newInfo.isLive
        state.position = 0
        state.hasEnded = false
        // A failure paused playback, not a viewer: the new source plays.
        if state.error != nil { state.isPlaying = true }
        state.error = nil
        state.isOnline = true
        state.offlineReason = nil
        state.retryAt = nil
        condition.broadcast()
        condition.unlock()
    }

    /// Why frames described by `info` cannot go into the pool, or nil when they can.
    private func sizeMismatch(_ info: SourceInfo) -> MediaError? {
        guard info.width != pool.width || info.height != pool.height else { return nil }
        return .invalidInput("\(info.name) gives \(info.width)x\(info.height) frames, the player \(pool.width)x\(pool.height)")
    }

    /// Tells the player whether anything takes its frames (viewers, a recording, a publisher).
    /// With none, a file that plays is not decoded and nothing is put in `output`: its clock runs
    /// on — `position` follows it at `speed`, and the end loops or ends playback as it would —
    /// and commands work as usual. When consumers come back, the frame at the clock's position
    /// is decoded (a frame-accurate seek) and delivered at once, marked as a discontinuity, and
    /// playback goes on from it. A live source, which cannot wait, is read regardless; a paused
    /// player decodes nothing anyway. Consumers are assumed present until told otherwise.
    /// Returns true when consumers came back and such a fresh frame is on its way: the last
    /// frame delivered is stale.
    @discardableResult
    public func setConsumersPresent(_ present: Bool) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        consumersPresent = present
        condition.broadcast()
        return present && coasting
    }

    /// Between two looks at the clock while nobody watches: long enough to cost nothing, short
    /// enough that `position` (as `/api/state` shows it) is never far behind.
    static let coastTick: Duration = .milliseconds(100)

    private func update(_ change: (inout PlaybackState) -> Void) {
        condition.lock()
        change(&state)
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Decode thread

    private enum PendingSource {
        /// Opened by the caller; reconnected with `reopen` when it is live and fails.
        case opened(any VideoSource, reopen: SourceOpener?)
        /// To be opened on the decode thread (and reconnected with it when live).
        case opening(SourceOpener, isLive: Bool)
    }

    private enum Step {
        case stop
        case seek(Double)
        case switchSource(PendingSource)
        case decode(speed: Double, speedChanged: Bool)
        /// Playing a file of `duration` s that nobody watches: the position follows the clock.
        case coast(speed: Double, speedChanged: Bool, duration: Double)
        /// Paused with nothing shown yet: the next frame goes out at once.
        case showNextFrame
    }

    /// Waits for something to do. `needsFrame`: nothing has been delivered from the current
    /// source (or since it reconnected), so a paused player still shows one frame.
    private func nextStep(needsFrame: Bool) -> Step {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping { return .stop }
            if let pending = pendingSource {
                pendingSource = nil
                coasting = false
                return .switchSource(pending)
            }
            if let target = pendingSeek {
                pendingSeek = nil
                coasting = false
                return .seek(target)
            }
            if coasting && consumersPresent {
                // Back from coasting: the frame where the clock is now (or stopped, if paused).
                coasting = false
                return .seek(state.position)
            }
            if state.isPlaying && !state.hasEnded {
                defer { speedChanged = false }
                if !consumersPresent && !state.isLive, let duration = state.duration {
                    coasting = true
                    return .coast(speed: state.speed, speedChanged: speedChanged, duration: duration)
                }
                return .decode(speed: state.speed, speedChanged: speedChanged)
            }
            if needsFrame && !state.hasEnded && state.error == nil { return .showNextFrame }
            condition.wait()
        }
    }

    private func run() {
        source?.routeAudio(to: audioQueue)
        let wallClock = ContinuousClock()
        var clock = PlaybackClock(clock: wallClock, speed: playbackState.speed)
        var waitingFrame: Frame?  // decoded but not yet due when playback paused
        // The last frame delivered: the clock restarts from it. Nil until the current source (or
        // its reconnection) delivered one, which a paused player still shows.
        var shownTime: Double?
        defer { if let waitingFrame { pool.recycle(waitingFrame) } }
        /// Reads the source's next frame; nil at its end or after a failure, both handled.
        func readNext() -> Frame? {
            let frame = pool.take()
            do {
                // No binding of `source` here: `recover` must be able to release it.
                guard let more = try source?.read(into: frame), more else {
                    pool.recycle(frame)
                    // No source: a reconnection gave way to a stop or a source switch.
                    if source != nil { endOfFile() }
                    return nil
                }
                framesDecoded.increment()
                return frame
            } catch {
                pool.recycle(frame)
                if recover(from: error) {
                    clock.invalidate()  // a reconnected stream has a timeline of its own
                    shownTime = nil
                }
                return nil
            }
        }
        /// Forgets the frame decoded before a command came: it is not the next one to show.
        func dropWaitingFrame() {
            if let frame = waitingFrame { pool.recycle(frame); waitingFrame = nil }
        }
        /// Delivers the frame `fill` decodes as a discontinuity (a seek, a new source); the
        /// clock restarts from it.
        func deliverJump(_ fill: (Frame) throws(MediaError) -> Void) {
            dropWaitingFrame()
            let frame = pool.take()
            do throws(MediaError) {
                try fill(frame)
                framesDecoded.increment()
                clock.invalidate()
                frame.isDiscontinuity = true
                deliver(frame)
                shownTime = frame.time
            } catch {
                pool.recycle(frame)
                // A switch or a stop interrupts a seek on purpose: that is no failure of the source.
                if !stoppingOrSwitching { fail(error) }
            }
        }
        while true {
            switch nextStep(needsFrame: shownTime == nil) {
            case .stop:
                return
            case .seek(let target):
                deliverJump { (frame) throws(MediaError) in
                    // A switch to a live source may have overtaken the seek.
                    guard let seekable = source as? any SeekableVideoSource else {
                        throw .notSeekable(input: info.name)
                    }
                    try seekable.verifyUnchanged()
                    try seekable.seek(to: target, into: frame)
                }
            case .switchSource(let pending):
                retry.reset()
                offlineSince = nil
                shownTime = nil
                dropWaitingFrame()  // the old source's
                clock.invalidate()
                guard let newSource = adopt(pending) else { continue }
                deliverJump { (frame) throws(MediaError) in
                    guard try newSource.read(into: frame) else { throw .endOfStream(input: newSource.info.name) }
                }
            case .showNextFrame:
                // A frame decoded before the pause came in is the one to show.
                let next = waitingFrame ?? readNext()
                waitingFrame = nil
                guard let frame = next else { continue }
                clock.invalidate()
                frame.isDiscontinuity = true
                deliver(frame)
                shownTime = frame.time
            case .coast(let speed, let speedChanged, let duration):
                if let frame = waitingFrame { pool.recycle(frame); waitingFrame = nil }
                coast(&clock, speed: speed, speedChanged: speedChanged, duration: duration)
            case .decode(let speed, let speedChanged):
                if speedChanged { clock = PlaybackClock(clock: wallClock, speed: speed) }
                let frame: Frame
                if let waiting = waitingFrame {
                    frame = waiting
                    waitingFrame = nil
                } else {
                    guard let next = readNext() else { continue }
                    frame = next
                }
                if !clock.isAnchored, let shownTime { clock.anchor(shownTime, at: wallClock.now) }
                var deadline = clock.deadline(for: frame.time, now: wallClock.now)
                if info.isLive, wallClock.now - deadline > .milliseconds(500) {
                    // A live source that fell behind (a stall, a slow machine) starts over from now.
                    clock.anchor(frame.time, at: wallClock.now)
                    deadline = wallClock.now
                }
                if waitUntil(deadline, wallClock) {
                    frame.isDiscontinuity = false
                    deliver(frame)
                    shownTime = frame.time
                } else {
                    waitingFrame = frame  // interrupted by a command: decide again
                    clock.invalidate()
                }
            }
        }
    }

    /// Makes `pending` the source (opening it first when it is not open yet); nil when that
    /// failed, handled (a live source reconnects, a file stops playback) or interrupted.
    private func adopt(_ pending: PendingSource) -> (any VideoSource)? {
        switch pending {
        case .opened(let newSource, let newReopen):
            source = newSource
            reopen = newReopen
        case .opening(let open, let isLive):
            // The warnings go where the current source's went.
            let warn = source?.onWarning
            source = nil  // closed first: its UDP port or camera must be free for the new one
            reopen = isLive ? open : nil
            do throws(MediaError) {
                let opened = try open()
                if let mismatch = sizeMismatch(opened.info) { throw mismatch }
                source = opened
            } catch {
                if stoppingOrSwitching { return nil }  // interrupted on purpose
                if let reopen { reconnect(after: error, using: reopen, warn: warn) } else { fail(error, warn: warn) }
                return nil
            }
        }
        return source
    }

    /// One stretch of playing while nobody watches: no decoding; `position` follows the clock
    /// until the next tick, a command or the consumers' return, and at `duration` the file ends
    /// as it does when decoded (checked unchanged, then looped or ended).
    private func coast(_ clock: inout PlaybackClock<ContinuousClock>, speed: Double, speedChanged: Bool,
                       duration: Double) {
        let now = clock.clock.now
        if speedChanged || !clock.isAnchored {
            clock = PlaybackClock(clock: clock.clock, speed: speed)
            clock.anchor(playbackState.position, at: now)
        }
        let end = clock.deadline(for: duration, now: now)
        let wake = min(now + Self.coastTick, end)
        let undisturbed = waitUntil(wake, clock.clock, untilConsumersReturn: true)
        let position = min(clock.mediaTime(at: clock.clock.now) ?? duration, duration)
        update { $0.position = position }
        if (undisturbed && wake == end) || position >= duration {
            endOfFile()
        } else if !undisturbed {
            clock.invalidate()  // a command: decide again, from `position`
        }
    }

    /// Sleeps until `deadline`; false when a command (pause, seek, stop, speed, switch) arrives
    /// first, or only stop and switch when `onlyStop`; with `untilConsumersReturn` also when
    /// consumers are present.
    private func waitUntil(_ deadline: ContinuousClock.Instant, _ clock: ContinuousClock, onlyStop: Bool = false,
                           untilConsumersReturn: Bool = false) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping || pendingSource != nil { return false }
            if !onlyStop && (pendingSeek != nil || !state.isPlaying || speedChanged) { return false }
            if untilConsumersReturn && consumersPresent { return false }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
    }

    private func deliver(_ frame: Frame) {
        retry.reset()
        if let since = offlineSince {
            offlineSince = nil
            Log.info("\(info.name) is back online", ["offlineSeconds": .double((since.duration(to: .now).seconds * 10).rounded() / 10)])
        }
        update {
            $0.position = frame.time
            $0.error = nil
            $0.isOnline = true
            $0.offlineReason = nil
            $0.retryAt = nil
        }
        if let displaced = output.put(frame) {
            framesSuperseded.increment()
            pool.recycle(displaced)
        }
    }

    /// After a failed read: reconnects a live source, skips a file past the failure, or stops
    /// with the error. Returns true when the source was replaced (its timeline starts afresh).
    private func recover(from error: MediaError) -> Bool {
        if stoppingOrSwitching { return false }  // the read was interrupted on purpose
        if let reopen {
            reconnect(after: error, using: reopen)
            return true
        }
        let position = playbackState.position
        // The skip is a seek: it stops with the reason when the file was deleted or changed.
        if let source = source as? any SeekableVideoSource, let duration = source.info.duration, position + 1 < duration {
            source.onWarning("\(error.description); skipping to \(position + 1) s")
            update { _ in pendingSeek = position + 1 }
        } else {
            fail(error)
        }
        return false
    }

    /// Stays offline, retrying with ``RetryPolicy``'s delays, until the source opens again (its
    /// first frame then sets `isOnline`), the player stops or another source is switched to.
    /// `warn` receives the warnings when there is no source to give them (the current one's).
    private func reconnect(after error: MediaError, using reopen: SourceOpener, warn: ((String) -> Void)? = nil) {
        let clock = ContinuousClock()
        let name = info.name
        var reason = error.description
        let warn = warn ?? source?.onWarning ?? { _ in }
        source = nil
        offlineSince = offlineSince ?? .now
        while true {
            let delay = retry.nextDelay()
            let retryAt = clock.now + delay
            warn("\(name) is offline (\(reason)); retrying in \(delay.components.seconds) s")
            update {
                $0.isOnline = false
                $0.offlineReason = reason
                $0.retryAt = retryAt
            }
            guard waitUntil(retryAt, clock, onlyStop: true) else { return }
            update { $0.retryAt = nil }
            do {
                let reopened = try reopen()
                guard reopened.info.width == pool.width, reopened.info.height == pool.height else {
                    reason = "\(name) came back at \(reopened.info.width)x\(reopened.info.height), not \(pool.width)x\(pool.height)"
                    continue
                }
                reopened.onWarning = warn
                source = reopened
                return
            } catch {
                if stoppingOrSwitching { return }  // the attempt was interrupted on purpose
                reason = error.description
            }
        }
    }

    private var stoppingOrSwitching: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || pendingSource != nil
    }

    private func endOfFile() {
        do throws(MediaError) {
            try (source as? any SeekableVideoSource)?.verifyUnchanged()
        } catch {
            return fail(error)
        }
        if loops {
            update { _ in pendingSeek = 0 }
        } else {
            update { $0.hasEnded = true; $0.isPlaying = false }
        }
    }

    /// Stops playback with `error`; offline (so viewers get the placeholder) until a switch.
    /// `warn` receives the warning when there is no source to give it.
    private func fail(_ error: MediaError, warn: ((String) -> Void)? = nil) {
        (warn ?? source?.onWarning)?("\(error.description); playback stopped")
        update {
            coasting = false  // nothing to catch up with: the source is gone
            $0.error = error.description
            $0.isPlaying = false
            $0.isOnline = false
            $0.offlineReason = error.description
            $0.retryAt = nil
        }
    }
}
