@testable import CastServer
import CastProtocol
@testable import MediaKit
import Testing

/// The acks of `step` and `seek`, held until their frame is out, on instants the test chooses.
@Suite struct HeldAcksTests {
    let start = ContinuousClock.now

    @Test func anAckGoesOnceItsJumpIsOutNotBefore() {
        var acks = HeldAcks()
        #expect(acks.hold(.string("a"), now: start) == nil)
        #expect(acks.release(jumpsOut: 5, now: start).isEmpty, "no ticket yet: which jump it waits for is unknown")
        acks.waitFor(ticket: 3)
        #expect(acks.hold(.string("b"), now: start) == nil)
        acks.waitFor(ticket: 4)
        #expect(acks.release(jumpsOut: 2, now: start).isEmpty)
        #expect(acks.release(jumpsOut: 3, now: start) == [.string("a")])
        #expect(acks.release(jumpsOut: 9, now: start) == [.string("b")])
        #expect(acks.isEmpty)
    }

    @Test func anAckWhoseFrameNeverComesGoesAfterThePatience() {
        var acks = HeldAcks()
        _ = acks.hold(.number(1), now: start)
        acks.waitFor(ticket: 7)
        #expect(acks.release(jumpsOut: 0, now: start + HeldAcks.patience - .milliseconds(1)).isEmpty)
        #expect(acks.release(jumpsOut: 0, now: start + HeldAcks.patience) == [.number(1)])
    }

    @Test func anH264AckWaitsForTheUnitOfTheFramesOfferedWhenItsJumpWentOut() {
        var acks = HeldAcks()
        _ = acks.hold(.string("a"), now: start)
        acks.waitFor(ticket: 1)
        // Out with 5 frames offered to the encoder, 4 encoded: the jump's unit is still to come.
        #expect(acks.release(jumpsOut: 1, encoder: EncoderProgress(offered: 5, settled: 4), now: start).isEmpty)
        // Frames offered since do not move what it waits for.
        #expect(acks.release(jumpsOut: 1, encoder: EncoderProgress(offered: 7, settled: 5), pictureWaiting: true, now: start).isEmpty,
                "the unit is logged, but not yet sent to the viewer")
        #expect(acks.release(jumpsOut: 1, encoder: EncoderProgress(offered: 8, settled: 5), now: start) == [.string("a")])
    }

    @Test func pastTheCapacityTheOldestIsAnsweredAtOnce() {
        var acks = HeldAcks()
        for index in 0..<HeldAcks.capacity { #expect(acks.hold(.number(Double(index)), now: start) == nil) }
        #expect(acks.hold(.string("over"), now: start) == .number(0))
    }
}
