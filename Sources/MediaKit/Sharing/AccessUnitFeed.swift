import Foundation
import Synchronization
import Telemetry

/// The access units of a ``SharedEncode`` to a writer's own thread (a publish stream that takes
/// a rendition's encode): a ``UnitQueue`` that attaches to the encode. When the writer falls
/// behind (a slow server) the queue drops what waits and takes units again from the next
/// keyframe, which the feed asks for: the writer's stream jumps, as a viewer's does, and never
/// shows a broken picture.
///
/// Threads: `offer` on the encode's thread (it never waits); the rest from the writer's thread.
final class AccessUnitFeed: Sendable {
    let started = ContinuousClock.now
    let source: any SharedEncode
    private let queue: UnitQueue
    private let droppedTotal: Counter?
    /// The encode's attachment while attached.
    private let token = Mutex<Int?>(nil)
    /// Units dropped by overflows.
    private let dropped = Atomic<Int>(0)

    /// Where each unit's source time is written, for the writer's sound (and when the unit is).
    private let sound: SoundTrack?
    /// Where the units go in the stream: from their source times (the encode's thread).
    private let timeline: Mutex<OutputTimeline>

    /// Units of `source`, at most `capacity` waiting, for a stream of about `frameRate` pictures a
    /// second; drops are also counted in `droppedTotal`. Each unit's source time and stream time
    /// are noted in `sound`.
    init(source: any SharedEncode, frameRate: Double, capacity: Int, sound: SoundTrack? = nil, droppedTotal: Counter? = nil) {
        self.source = source
        self.sound = sound
        timeline = Mutex(OutputTimeline(frameRate: frameRate))
        queue = UnitQueue(capacity: capacity)
        self.droppedTotal = droppedTotal
    }

    /// Starts taking units (from the next keyframe, asked for now); the encode runs meanwhile.
    func attach() {
        queue.restart()
        let attached = source.attach { [weak self] unit in self?.offer(unit) }
        token.withLock { $0 = attached }
        source.requestKeyframe()
    }

    /// Stops taking units and drops those waiting: the encode may stop if nobody else watches it.
    func detach() {
        let attached = token.withLock { token in
            defer { token = nil }
            return token
        }
        queue.restart()
        if let attached { source.detach(attached) }
    }

    /// The encode's thread: queues a copy of `unit`, timed from its source time on the stream's
    /// ``OutputTimeline`` (a refinement of a still, or a keyframe of the paused picture, is the
    /// same picture again: whole frame intervals later, as many as passed).
    func offer(_ unit: EncodedAccessUnit) {
        guard token.withLock({ $0 != nil }) else { return }
        let elapsed = started.duration(to: .now).seconds
        let time = timeline.withLock { $0.place(source: unit.time, wall: elapsed) }
        _ = sound?.note(source: unit.time, at: time)
        guard case .overflowed(let count) = queue.offer(unit.bytes, keyframe: unit.isKeyframe,
                                                        time: Int64((time * 1000).rounded())) else { return }
        droppedTotal?.increment(by: UInt64(count))
        dropped.add(count, ordering: .relaxed)
        source.requestKeyframe()
    }

    /// Where the stream is now: the last unit's picture held until now, on the stream's timeline
    /// (seconds; nil before the first unit). For the end of a stream whose picture was still.
    func timeNow() -> Double? {
        let elapsed = started.duration(to: .now).seconds
        return timeline.withLock { $0.isEmpty ? nil : $0.repeatLast(wall: elapsed) }
    }

    /// The oldest waiting unit, waiting at most `timeout`; nil when none came, or once closed.
    func next(timeout: Duration) -> CopiedUnit? {
        queue.next(before: Date(timeIntervalSinceNow: timeout.seconds))
    }

    /// Wakes a waiting `next`, and every later one returns nil at once: the writer is stopping.
    func close() { queue.close() }

    /// Units dropped because the writer fell behind.
    var droppedUnits: Int { dropped.load(ordering: .relaxed) }

    /// A unit from ``next(timeout:)`` is done with.
    func recycle(_ unit: CopiedUnit) { queue.recycle(unit) }
}
