@testable import CastServer
import Testing

/// The adaptation against what a session really makes: a rendition that makes frames as a
/// session does (playing, paused, re-rendering while paused, switching sources), counted by the
/// same ``FrameRate`` the outputs use, on a clock the test moves, every frame acknowledged 8 ms
/// after it was made — a good link. No frame to deliver is no delivery failure: the viewer
/// stays on the largest rung.
@Suite struct RungChooserSessionTests {
    static let interval = Duration.milliseconds(40)
    var now = ContinuousClock.now
    var chooser: RungChooser
    var made = FrameRate()
    var moves: [Int] = []

    init() { chooser = RungChooser(rungCount: 3, now: now) }

    /// `seconds` in steps of a frame interval; `makes(step)` says whether the session makes a
    /// frame at that step. The chooser judges every quarter second, as the core's tick does.
    mutating func run(_ seconds: Double, makes: (Int) -> Bool = { _ in true }) {
        for step in 0..<Int(seconds * 25) {
            now += Self.interval
            if makes(step) {
                made.record(now)
                chooser.delivered(delay: .milliseconds(8), at: now + .milliseconds(8))
            }
            if step % 6 == 5, let rung = chooser.evaluate(now: now + .milliseconds(20), production: production,
                                                            frameInterval: Self.interval, oldestUnacknowledged: nil) {
                moves.append(rung)
            }
        }
    }

    var production: RungProduction {
        mutating get { RungProduction(made, now: now + .milliseconds(20)) }
    }

    @Test mutating func aPausedViewerKeepsItsRendition() {
        run(3)
        run(10, makes: { _ in false })
        #expect(moves == [] && chooser.rung == 0, "\(moves)")
        run(3)
        #expect(moves == [] && chooser.rung == 0, "and after play: \(moves)")
    }

    /// Paused, a slider dragged: bursts of re-rendered frames with pauses between them.
    @Test mutating func reRenderingWhilePausedKeepsTheRendition() {
        run(2)
        for _ in 0..<6 {
            run(0.6, makes: { $0 < 5 })
            run(1.2, makes: { _ in false })
            run(0.3, makes: { $0 % 3 == 0 })
        }
        #expect(moves == [] && chooser.rung == 0, "\(moves)")
    }

    /// Another source is opened: a second or so without frames, then frames again.
    @Test mutating func switchingSourcesKeepsTheRendition() {
        run(2)
        for gap in [0.3, 0.9, 1.6] {
            run(gap, makes: { _ in false })
            run(2)
        }
        #expect(moves == [] && chooser.rung == 0, "\(moves)")
    }

    @Test mutating func aStillRefinedWhilePausedKeepsTheRendition() {
        run(2)
        // An H.264 still: the paused picture, then a couple of finer encodings of it.
        run(6, makes: { $0 == 3 || $0 == 10 || $0 == 20 })
        #expect(moves == [] && chooser.rung == 0, "\(moves)")
    }

    @Test mutating func aLinkThatLosesFramesAfterAPauseStillGoesDown() {
        run(2)
        run(3, makes: { _ in false })
        run(1)
        var dropped = 0
        for step in 0..<30 {
            now += Self.interval
            made.record(now)
            if step % 2 == 0 { chooser.delivered(delay: .milliseconds(8), at: now) } else { dropped += 1 }
            if step % 6 == 5, let rung = chooser.evaluate(now: now, production: production,
                                                          frameInterval: Self.interval, oldestUnacknowledged: nil) {
                moves.append(rung)
            }
        }
        #expect(moves == [1], "half the frames lost: one rung down (\(dropped) lost)")
    }
}
