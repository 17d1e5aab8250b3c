@testable import CastServer
import Testing

/// Per-viewer flow control, without sockets.
@Suite struct ViewerFlowTests {
    static let frameInterval = Duration.milliseconds(33)

    @Test func windowCountsFramesInFlight() {
        var viewer = ViewerFlow()
        let start = ContinuousClock.now
        viewer.sent(10, at: start)
        #expect(viewer.isOpen(frameInterval: Self.frameInterval))
        viewer.sent(14, at: start)  // frames 11–13 were skipped: still two in flight
        #expect(!viewer.isOpen(frameInterval: Self.frameInterval))
        viewer.acknowledge(10, roundTrip: .zero, now: start + .milliseconds(5))
        #expect(viewer.isOpen(frameInterval: Self.frameInterval))
        viewer.setWindow(0)
        viewer.sent(15, at: start)
        viewer.sent(16, at: start)
        #expect(viewer.isOpen(frameInterval: Self.frameInterval), "window 0: acknowledgements off")
    }

    /// The time the client says it held the frame (its decoder's lag, `heldMs`) is not the
    /// link's: the delay returned leaves it out, as it leaves out the round trip.
    @Test func theTimeTheClientHeldAFrameIsNotTheLinks() {
        var viewer = ViewerFlow()
        let start = ContinuousClock.now
        viewer.sent(1, at: start)
        viewer.sent(2, at: start)
        let busy = viewer.acknowledge(1, roundTrip: .milliseconds(2), held: .milliseconds(180), now: start + .milliseconds(190))
        #expect(busy == .milliseconds(8))
        let unsaid = viewer.acknowledge(2, roundTrip: .milliseconds(2), now: start + .milliseconds(190))
        #expect(unsaid == .milliseconds(188), "a v1 client that does not say: all of it is the link's")
    }

    @Test func aSlowReaderGetsOneFrameInFlight() {
        var viewer = ViewerFlow()
        var now = ContinuousClock.now
        for sequence in UInt64(1)...4 {  // a reader that takes 200 ms to show each frame
            viewer.sent(sequence, at: now)
            now += .milliseconds(200)
            viewer.acknowledge(sequence, roundTrip: .microseconds(100), now: now)
        }
        viewer.sent(5, at: now)
        #expect(!viewer.isOpen(frameInterval: Self.frameInterval), "a second frame would arrive 200 ms stale")
    }

    @Test func aFastReaderFarAwayKeepsTheFullWindow() {
        var viewer = ViewerFlow()
        var now = ContinuousClock.now
        for sequence in UInt64(1)...4 {  // 80 ms round trip, 5 ms to show
            viewer.sent(sequence, at: now)
            now += .milliseconds(85)
            viewer.acknowledge(sequence, roundTrip: .milliseconds(80), now: now)
        }
        viewer.sent(5, at: now)
        #expect(viewer.isOpen(frameInterval: Self.frameInterval))
    }
}
