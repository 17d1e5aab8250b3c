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
