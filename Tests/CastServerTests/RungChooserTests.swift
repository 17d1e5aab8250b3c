@testable import CastServer
import Testing

/// The adaptation rules on a clock the test moves: 25 frames a second, acknowledged (or not) as
/// a link of some quality would.
@Suite struct RungChooserTests {
    static let interval = Duration.milliseconds(40)
    var now = ContinuousClock.now
    var chooser: RungChooser

    init() { chooser = RungChooser(rungCount: 3, now: now) }

    /// `seconds` of frames, `share` of them acknowledged after `delay`; returns every move.
    mutating func run(_ seconds: Double, share: Double = 1, delay: Duration = .milliseconds(8),
                      waiting: Duration? = nil) -> [Int] {
        var moves: [Int] = []
        let frames = Int(seconds * 25)
        for frame in 0..<frames {
            now += Self.interval
            if Double(frame % 20) < share * 20 { chooser.delivered(delay: delay, at: now) }
            if frame % 6 == 5, let rung = chooser.evaluate(now: now, production: .steady(25), frameInterval: Self.interval,
                                                           oldestUnacknowledged: waiting) {
                moves.append(rung)
            }
        }
        return moves
    }

    @Test mutating func aGoodLinkStaysOnTheLargestRung() {
        #expect(run(10) == [])
        #expect(chooser.rung == 0)
    }

    @Test mutating func aLinkThatDeliversHalfTheFramesGoesDownWithinASecond() {
        _ = run(2)
        let moves = run(1.2, share: 0.5)
        #expect(moves == [1])
    }

    @Test mutating func lagGoesDownToo() {
        _ = run(2)
        #expect(run(1.2, delay: .milliseconds(200)).first == 1)
    }

    @Test mutating func aFailedProbeGoesBackAtOnceAndWaitsLongerNextTime() {
        _ = run(2)
        #expect(run(1.2, share: 0.5) == [1])
        // Settled, then healthy on rung 1 for the hold (1.5 s): a probe up; the link cannot take it.
        #expect(run(3) == [0])
        #expect(run(0.4, delay: .milliseconds(120)) == [1], "back down within a few frames")
        #expect(chooser.hold == .seconds(3))
        // A climb undone: the next waits a minute (not only the longer hold), so that a link that
        // cannot keep the larger rung is moved at most twice a minute.
        #expect(run(59) == [], "no probe within a minute of the failed one")
        #expect(run(1.5) == [0])
        #expect(run(0.4, delay: .milliseconds(120)) == [1])
        #expect(chooser.hold == RungChooser.maximumHold, "3 s at most")
    }

    @Test mutating func aProbeThatHoldsResetsTheHoldAndARecoveredLinkClimbsWithinSeconds() {
        _ = run(2)
        #expect(run(1.2, share: 0.5) == [1])
        #expect(run(1.2, share: 0.5) == [2])
        // The link recovers: up one rung after the hold, and the next after another, within 5 s.
        let moves = run(5)
        #expect(moves == [1, 0], "\(moves)")
        #expect(chooser.hold == RungChooser.baseHold)
    }

    @Test mutating func nothingIsJudgedWhilePaused() {
        _ = run(2)
        for _ in 0..<40 {
            now += .milliseconds(250)
            #expect(chooser.evaluate(now: now, production: .steady(0), frameInterval: Self.interval, oldestUnacknowledged: nil) == nil)
        }
        #expect(chooser.rung == 0)
    }
}

/// H.264's padded probes: padding first, the climb only if the frames stay on time.
@Suite struct PaddedProbeTests {
    var now = ContinuousClock.now
    var chooser: RungChooser

    init() { chooser = RungChooser(rungCount: 2, padsProbes: true, now: now) }

    mutating func step(_ seconds: Double, share: Double = 1, delay: Duration = .milliseconds(8)) -> [Int] {
        var moves: [Int] = []
        for frame in 0..<Int(seconds * 25) {
            now += .milliseconds(40)
            if Double(frame % 20) < share * 20 { chooser.delivered(delay: delay, at: now) }
            if frame % 6 == 5, let rung = chooser.evaluate(now: now, production: .steady(25), frameInterval: .milliseconds(40),
                                                           oldestUnacknowledged: nil) {
                moves.append(rung)
            }
        }
        return moves
    }

    @Test mutating func aLinkThatCannotTakeThePaddingNeverClimbs() {
        _ = step(1)
        #expect(step(1.2, share: 0.5) == [1])
        #expect(step(2.5) == [] && chooser.padding?.rung == 0, "healthy for the hold: padding, no climb yet")
        #expect(step(0.3, delay: .milliseconds(150)) == [] && chooser.padding == nil, "lagging: the padding stops")
        #expect(chooser.rung == 1 && chooser.hold == .seconds(3))
    }

    @Test mutating func aSocketThatHoldsThePaddingStopsItAtOnce() {
        _ = step(1)
        #expect(step(1.2, share: 0.5) == [1])
        #expect(step(2.5) == [] && chooser.padding?.rung == 0)
        chooser.socketQueued(17_001, allowance: 17_000, at: now)
        #expect(chooser.padding == nil && chooser.hold == .seconds(3), "the queue grew: no padding, a longer hold")
    }

    @Test mutating func aLinkThatTakesThePaddingClimbs() {
        _ = step(1)
        #expect(step(1.2, share: 0.5) == [1])
        #expect(step(5) == [0], "within 5 s of the link recovering")
        #expect(chooser.padding == nil)
    }
}
