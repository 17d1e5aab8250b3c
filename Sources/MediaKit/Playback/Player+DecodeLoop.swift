import FilterKit
import Foundation
import Logging

/// The decode thread: one step at a time, each chosen under the lock from the commands.
extension Player {
    enum Step {
        case stop
        case seek(Double)
        case switchSource(PendingSource)
        case decode(speed: Double, speedChanged: Bool)
        /// Playing backward (`speed` negative): see ``reverseStep(_:speed:speedChanged:)``.
        case reverse(speed: Double, speedChanged: Bool)
        /// Playing a file of `duration` s that nobody watches: the position follows the clock.
        case coast(speed: Double, speedChanged: Bool, duration: Double)
        /// Paused with nothing shown yet: the next frame goes out at once.
        case showNextFrame
        /// A live input nothing took frames from for `idleClose`: closed until consumers come.
        case closeIdle
        /// The input closed on demand: consumers came back.
        case reopenIdle
    }

    /// The decode thread's body: runs steps until `stop()`.
    func run() {
        source?.routeAudio(to: audioQueue)
        var loop = DecodeLoopState(speed: playbackState.speed)
        defer { dropWaitingFrame(&loop) }
        while true {
            switch nextStep(needsFrame: loop.needsFrame) {
            case .stop:
                return
            case .seek(let target):
                seekStep(to: target, &loop)
            case .switchSource(let pending):
                switchStep(to: pending, &loop)
            case .showNextFrame:
                showNextFrame(&loop)
            case .coast(let speed, let speedChanged, let duration):
                dropWaitingFrame(&loop)
                coast(&loop.clock, speed: speed, speedChanged: speedChanged, duration: duration)
            case .decode(let speed, let speedChanged):
                decodeStep(&loop, speed: speed, speedChanged: speedChanged)
            case .reverse(let speed, let speedChanged):
                reverseStep(&loop, speed: speed, speedChanged: speedChanged)
            case .closeIdle:
                closeIdle(&loop)
            case .reopenIdle:
                reopenIdle()
            }
        }
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
                seekUnderWay = target
                jumpTaken = jumpsAsked
                coasting = false
                return .seek(target)
            }
            if coasting && consumersPresent {
                // Back from coasting: the frame where the clock is now (or stopped, if paused).
                coasting = false
                return .seek(state.position)
            }
            switch onDemand(now: .now) {
            case .close: return .closeIdle
            case .reopen: return .reopenIdle
            case .sleep: break
            case nil:
                if state.isPlaying && !state.hasEnded {
                    defer { speedChanged = false }
                    if state.speed < 0 { return .reverse(speed: state.speed, speedChanged: speedChanged) }
                    if !consumersPresent && !state.isLive, let duration = state.duration {
                        coasting = true
                        return .coast(speed: state.speed, speedChanged: speedChanged, duration: duration)
                    }
                    return .decode(speed: state.speed, speedChanged: speedChanged)
                }
                if needsFrame && !state.hasEnded && state.error == nil { return .showNextFrame }
            }
            decodeThreadIdle = true
            condition.broadcast()
            if let deadline = idleDeadline {
                // Paused with the idle timer running: it closes the input at its deadline.
                _ = condition.wait(until: Date(timeIntervalSinceNow: ContinuousClock.now.duration(to: deadline).seconds))
            } else {
                condition.wait()
            }
            decodeThreadIdle = false
        }
    }

    /// The exact frame at `target` (checked unchanged first), delivered at once.
    private func seekStep(to target: Double, _ loop: inout DecodeLoopState) {
        deliverJump(&loop) { (frame) throws(MediaError) in
            // A switch to a live source may have overtaken the seek.
            guard let seekable = source as? any SeekableVideoSource else {
                throw .notSeekable(input: info.name)
            }
            try seekable.verifyUnchanged()
            try seekable.seek(to: target, into: frame)
        }
    }

    /// Paused with nothing shown: the next frame goes out at once (the one decoded before the
    /// pause came in, if any).
    private func showNextFrame(_ loop: inout DecodeLoopState) {
        guard let frame = loop.takeWaitingFrame() ?? readNext(&loop) else { return }
        loop.clock.invalidate()
        frame.isDiscontinuity = true
        deliver(frame, &loop)
    }

    /// Playing: the next frame, delivered when it is due unless a command comes first (then
    /// it waits in `loop` for the next decision).
    private func decodeStep(_ loop: inout DecodeLoopState, speed: Double, speedChanged: Bool) {
        let wallClock = loop.clock.clock
        if speedChanged { loop.clock = PlaybackClock(clock: wallClock, speed: speed) }
        keepPicturesForLoop(&loop)
        guard let frame = loop.takeWaitingFrame() ?? readNext(&loop) else { return }
        if !loop.clock.isAnchored, let shownTime = loop.shownTime { loop.clock.anchor(shownTime, at: wallClock.now) }
        // Past the loop's out: the frame at its in takes this one's turn.
        if wrapLoop(frame, &loop) { return }
        var deadline = loop.clock.deadline(for: frame.time, now: wallClock.now)
        if info.isLive, wallClock.now - deadline > .milliseconds(500) {
            // A live source that fell behind (a stall, a slow machine) starts over from now.
            loop.clock.anchor(frame.time, at: wallClock.now)
            deadline = wallClock.now
        }
        decodeAhead(until: deadline, wallClock)
        if waitUntil(deadline, wallClock) {
            frame.isDiscontinuity = false
            deliver(frame, &loop)
        } else {
            loop.waitingFrame = frame  // interrupted by a command: decide again
            loop.clock.invalidate()
        }
    }

    /// Reads the source's next frame; nil at its end or after a failure, both handled.
    private func readNext(_ loop: inout DecodeLoopState) -> Frame? {
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
            // A reconnected stream has a timeline of its own.
            if recover(from: error) { loop.restartTimeline() }
            return nil
        }
    }

    /// Forgets the frame decoded before a command came: it is not the next one to show.
    func dropWaitingFrame(_ loop: inout DecodeLoopState) {
        if let frame = loop.takeWaitingFrame() { pool.recycle(frame) }
    }

    /// Delivers the frame `fill` decodes as a discontinuity (a seek, a new source); the clock
    /// restarts from it.
    func deliverJump(_ loop: inout DecodeLoopState, _ fill: (Frame) throws(MediaError) -> Void) {
        dropWaitingFrame(&loop)
        let frame = pool.take()
        do throws(MediaError) {
            try fill(frame)
            framesDecoded.increment()
            loop.clock.invalidate()
            frame.isDiscontinuity = true
            deliver(frame, &loop)
        } catch {
            pool.recycle(frame)
            // A switch or a stop interrupts a seek on purpose: that is no failure of the source.
            if !stoppingOrSwitching { fail(error) }
        }
    }

    /// Puts `frame` in `output` (recycling the one it displaces): the source is online, the
    /// position is the frame's, and the clock restarts from it after a jump.
    func deliver(_ frame: Frame, _ loop: inout DecodeLoopState) {
        retry.reset()
        if let since = offlineSince {
            offlineSince = nil
            log.info("\(info.name) is back online", ["offlineSeconds": .double((since.duration(to: .now).seconds * 10).rounded() / 10)])
        }
        update {
            $0.position = frame.time
            $0.markOnline()
            if seekUnderWay != nil { deliveredJump = (ObjectIdentifier(frame), jumpTaken) }
            seekUnderWay = nil
        }
        loop.shownTime = frame.time
        if let displaced = output.put(frame) {
            framesSuperseded.increment()
            passJump(from: displaced, to: frame)
            pool.recycle(displaced)
        }
    }

    /// Whether a command that changes what plays next (pause, seek, stop, speed, switch) waits.
    var commandWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || pendingSource != nil || commandChangesPlayback
    }

    /// A seek, a pause or a new speed waits (under the lock).
    private var commandChangesPlayback: Bool { pendingSeek != nil || !state.isPlaying || speedChanged }

    /// Sleeps until `deadline`; false when a command (pause, seek, stop, speed, switch) arrives
    /// first, or only stop and switch when `onlyStop`; with `untilConsumersReturn` also when
    /// consumers are present.
    func waitUntil(_ deadline: ContinuousClock.Instant, _ clock: ContinuousClock, onlyStop: Bool = false,
                   untilConsumersReturn: Bool = false) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping || pendingSource != nil { return false }
            if !onlyStop && commandChangesPlayback { return false }
            if untilConsumersReturn && consumersPresent { return false }
            let remaining = clock.now.duration(to: deadline)
            if remaining <= .zero { return true }
            _ = condition.wait(until: Date(timeIntervalSinceNow: remaining.seconds))
        }
    }
}
