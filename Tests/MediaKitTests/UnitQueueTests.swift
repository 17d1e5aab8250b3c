import Foundation
@testable import MediaKit
import Testing

/// The queue between a producer and one consumer of encoded pictures: in order, from a
/// keyframe, a full queue dropping its backlog.
@Suite struct UnitQueueTests {
    private func offer(_ queue: UnitQueue, _ byte: UInt8, keyframe: Bool = false) -> UnitQueue.Offer {
        [byte, byte].withUnsafeBytes { queue.offer($0, keyframe: keyframe, time: Int64(byte)) }
    }

    private func take(_ queue: UnitQueue) -> (byte: UInt8, time: Int64, keyframe: Bool)? {
        guard let unit = queue.next(before: Date()) else { return nil }
        defer { queue.recycle(unit) }
        return (unit.bytes[0], unit.time, unit.isKeyframe)
    }

    @Test func startsAtAKeyframeAndKeepsTheOrder() {
        let queue = UnitQueue(capacity: 4)
        #expect(offer(queue, 1) == .refused)
        #expect(offer(queue, 2, keyframe: true) == .queued)
        #expect(offer(queue, 3) == .queued)
        let first = take(queue), second = take(queue)
        #expect(first?.byte == 2 && first?.time == 2 && first?.keyframe == true)
        #expect(second?.byte == 3 && second?.keyframe == false)
        #expect(take(queue) == nil)
    }

    @Test func aFullQueueDropsItsBacklogAndWaitsForAKeyframe() {
        let queue = UnitQueue(capacity: 3)
        #expect(offer(queue, 1, keyframe: true) == .queued)
        #expect(offer(queue, 2) == .queued)
        #expect(offer(queue, 3) == .queued)
        #expect(offer(queue, 4) == .overflowed(4))
        #expect(take(queue) == nil)
        #expect(offer(queue, 5) == .refused)
        #expect(offer(queue, 6, keyframe: true) == .queued)
        #expect(take(queue)?.byte == 6)
    }

    @Test func restartDropsWhatWaits() {
        let queue = UnitQueue(capacity: 3)
        _ = offer(queue, 1, keyframe: true)
        queue.restart()
        #expect(take(queue) == nil)
        #expect(offer(queue, 2) == .refused)
    }

    @Test func closeWakesAWaitingConsumerAndRefusesMore() async {
        let queue = UnitQueue(capacity: 3)
        _ = offer(queue, 1, keyframe: true)
        let started = Date()
        queue.close()
        #expect(queue.next(before: Date(timeIntervalSinceNow: 5)) == nil)
        #expect(offer(queue, 2, keyframe: true) == .refused)
        let waiter = UnitQueue(capacity: 1)
        Thread.detachNewThread { Thread.sleep(forTimeInterval: 0.1); waiter.close() }
        #expect(waiter.next(before: Date(timeIntervalSinceNow: 5)) == nil)
        #expect(Date().timeIntervalSince(started) < 2)
    }

    @Test func aWaitEndsAtItsDeadline() {
        let queue = UnitQueue(capacity: 1)
        let started = Date()
        #expect(queue.next(before: Date(timeIntervalSinceNow: 0.1)) == nil)
        #expect(Date().timeIntervalSince(started) >= 0.09)
    }
}
