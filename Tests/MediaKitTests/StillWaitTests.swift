@testable import MediaKit
import Testing

/// When the H.264 encoder takes the picture it holds for a still: after half again the cadence
/// pictures really come at, never sooner than half again the stream's interval.
@Suite struct StillWaitTests {
    let start = ContinuousClock.now
    static let declared = Duration.milliseconds(66)  // 15 fps, as tree.avi declares

    func wait(arrivals milliseconds: [Int]) -> StillWait {
        var wait = StillWait(interval: Self.declared)
        for at in milliseconds { wait.arrived(at: start + .milliseconds(at)) }
        return wait
    }

    /// tree.avi: 15 fps declared, a new picture every 400 ms. Refining after 99 ms sent three or
    /// four H.264 units for every picture that did not change.
    @Test func aSourceSlowerThanItDeclaresIsNotRefinedBetweenItsPictures() {
        let wait = wait(arrivals: [0, 400, 800, 1200, 1600, 2000])
        #expect(wait.timeout > .milliseconds(400), "\(wait.timeout)")
    }

    @Test func aSteadySourceAtItsDeclaredRateWaitsHalfAnIntervalMore() {
        #expect(wait(arrivals: [0, 66, 132, 198, 264]).timeout == Self.declared * 3 / 2)
        #expect(StillWait(interval: Self.declared).timeout == Self.declared * 3 / 2, "no picture yet")
    }

    @Test func aPauseOrAStallDoesNotPostponeTheRefinementForLong() {
        // Playing at 15 fps, then one picture after a pause of a minute: still the playing cadence.
        #expect(wait(arrivals: [0, 66, 132, 198, 264, 60_000]).timeout == Self.declared * 3 / 2)
        // Pictures only every few seconds: refined within about a second.
        #expect(wait(arrivals: [0, 5000, 10_000, 15_000]).timeout == StillWait.longestGap * 3 / 2)
    }
}
