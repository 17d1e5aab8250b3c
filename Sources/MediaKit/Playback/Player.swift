import FilterKit
import Foundation
import Telemetry

/// Plays a source in real time on its own decode thread: paces frames by their timestamps,
/// pauses, seeks frame-accurately, loops or stops at the end, and hands each frame to `output`.
///
/// Control calls (`play`, `pause`, `seek`, `stop`) are safe from any thread and take effect at
/// once: a seek while paused delivers the exact frame immediately. Frames go to `output`, a
/// latest-wins queue: whoever takes them recycles them into `pool` when done.
public final class Player: @unchecked Sendable {
    public let info: SourceInfo
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

    private var thread: WorkerThread?
    /// Only the decode thread touches the source after `start()`.
    nonisolated(unsafe) private let source: any VideoSource
    private let loops: Bool
    private let interruption: Interruption

    /// Opens nothing: `source` was opened by the caller (errors surface there). Call `start()`.
    public init(source: any VideoSource, options: PlaybackOptions = PlaybackOptions(),
                output: FrameQueue = FrameQueue(capacity: 1, policy: .latestWins)) {
        self.source = source
        self.info = source.info
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

    /// Stops the decode thread and closes `output`, also when a read is blocked on a stalled
    /// stream. Idempotent.
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
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

    /// Seeks to `seconds` (clamped to the duration). Live sources refuse.
    public func seek(to seconds: Double) throws(MediaError) {
        guard !info.isLive else { throw .notSeekable(input: info.name) }
        guard seconds.isFinite, seconds >= 0 else {
            throw .seekFailed(input: info.name, seconds: seconds, reason: "the position must be a number ≥ 0")
        }
        let target = min(seconds, info.duration ?? seconds)
        update { $0.hasEnded = false; pendingSeek = target }
    }

    private func update(_ change: (inout PlaybackState) -> Void) {
        condition.lock()
        change(&state)
        condition.broadcast()
        condition.unlock()
    }

    // MARK: - Decode thread

    private enum Step {
        case stop
        case seek(Double)
        case decode(speed: Double, speedChanged: Bool)
    }

    private func nextStep() -> Step {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping { return .stop }
            if let target = pendingSeek {
                pendingSeek = nil
                return .seek(target)
            }
            if state.isPlaying && !state.hasEnded {
                defer { speedChanged = false }
                return .decode(speed: state.speed, speedChanged: speedChanged)
            }
            condition.wait()
        }
    }

    private func run() {
        let wallClock = ContinuousClock()
        var clock = PlaybackClock(clock: wallClock, speed: playbackState.speed)
        var waitingFrame: Frame?  // decoded but not yet due when playback paused
        var shownTime: Double?    // the last frame delivered: the clock restarts from it
        defer { if let waitingFrame { pool.recycle(waitingFrame) } }
        while true {
            switch nextStep() {
            case .stop:
                return
            case .seek(let target):
                if let frame = waitingFrame { pool.recycle(frame); waitingFrame = nil }
                let frame = pool.take()
                do {
                    try (source as! SeekableVideoSource).seek(to: target, into: frame)
                    framesDecoded.increment()
                    clock.invalidate()
                    frame.isDiscontinuity = true
                    deliver(frame)
                    shownTime = frame.time
                } catch {
                    pool.recycle(frame)
                    fail(error)
                }
            case .decode(let speed, let speedChanged):
                if speedChanged { clock = PlaybackClock(clock: wallClock, speed: speed) }
                let frame: Frame
                if let waiting = waitingFrame {
                    frame = waiting
                    waitingFrame = nil
                } else {
                    frame = pool.take()
                    do {
                        guard try source.read(into: frame) else {
                            pool.recycle(frame)
                            endOfFile()
                            continue
                        }
                        framesDecoded.increment()
                    } catch {
                        pool.recycle(frame)
                        fail(error)
                        continue
                    }
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

    /// Sleeps until `deadline`; false when a command (pause, seek, stop, speed) arrives first.
    private func waitUntil(_ deadline: ContinuousClock.Instant, _ clock: ContinuousClock) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping || pendingSeek != nil || !state.isPlaying || speedChanged { return false }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
    }

    private func deliver(_ frame: Frame) {
        update { $0.position = frame.time; $0.error = nil }
        if let displaced = output.put(frame) {
            framesSuperseded.increment()
            pool.recycle(displaced)
        }
    }

    private func endOfFile() {
        if loops {
            update { _ in pendingSeek = 0 }
        } else {
            update { $0.hasEnded = true; $0.isPlaying = false }
        }
    }

    private func fail(_ error: MediaError) {
        update { $0.error = error.description; $0.isPlaying = false }
    }
}
