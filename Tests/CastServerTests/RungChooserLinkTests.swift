@testable import CastServer
import Testing

/// A slow link against a busy page or server (issue 37, item 4), on a clock the test moves:
/// 25 frames a second, the socket read at every frame. A link that cannot carry a rung leaves
/// bytes in the socket while its frames lag; a busy page lags with an empty socket (the link
/// delivered everything), and is not moved. A steady link is moved at most twice a minute.
@Suite struct RungChooserLinkTests {
    static let interval = Duration.milliseconds(40)
    var now = ContinuousClock.now
    var chooser: RungChooser
    var moves: [(at: Duration, rung: Int)] = []
    var elapsed = Duration.zero

    init() { chooser = RungChooser(rungCount: 3, now: now) }

    /// How a frame goes: acknowledged or not, after `delay`, with the socket backlogged or not.
    struct Delivery {
        var share: Double
        var delay: Duration
        /// The share of the socket's reads that find a backlog.
        var backlogged: Double
        var waiting: Duration?

        static let good = Delivery(share: 1, delay: .milliseconds(8), backlogged: 0)
        /// A link that cannot carry the rung: half the frames, late, the socket holding the rest.
        static let slowLink = Delivery(share: 0.5, delay: .milliseconds(200), backlogged: 1, waiting: .milliseconds(350))
        /// A JPEG link that cannot carry the rung: the one frame in flight drains for most of each cycle.
        static let slowJPEGLink = Delivery(share: 0.5, delay: .milliseconds(200), backlogged: 0.6, waiting: .milliseconds(350))
        /// A busy page (or server): as late and as few, but the socket sent everything.
        static let busyPage = Delivery(share: 0.5, delay: .milliseconds(200), backlogged: 0, waiting: .milliseconds(350))
    }

    /// `seconds` of frames, each delivered as `delivery(rung)` says; the chooser judges every
    /// quarter second, as the core's tick does.
    mutating func run(_ seconds: Double, _ delivery: (Int) -> Delivery) {
        for frame in 0..<Int(seconds * 25) {
            now += Self.interval
            elapsed += Self.interval
            let how = delivery(chooser.rung)
            let backlogged = Double(frame % 10) < how.backlogged * 10
            chooser.socketQueued(backlogged ? 40_000 : 0, allowance: 17_000, at: now)
            if Double(frame % 20) < how.share * 20 { chooser.delivered(delay: how.delay, at: now) }
            if frame % 6 == 5, let rung = chooser.evaluate(now: now, production: .steady(25), frameInterval: Self.interval,
                                                           oldestUnacknowledged: how.waiting) {
                moves.append((elapsed, rung))
            }
        }
    }

    func moves(from start: Double, to end: Double) -> Int {
        moves.filter { $0.at > .seconds(start) && $0.at <= .seconds(end) }.count
    }

    @Test mutating func aBusyPageOnAGoodLinkKeepsTheLargestRung() {
        run(2) { _ in .good }
        run(60) { _ in .busyPage }
        #expect(moves.isEmpty && chooser.rung == 0, "\(moves)")
    }

    /// A loaded machine's loopback: now and then the socket keeps what it was given for a while
    /// (acknowledgements late, a retransmission's 200 ms), while the busy page lags.
    @Test mutating func aLoadedLoopbacksOccasionalBacklogIsNoSlowLink() {
        run(2) { _ in .good }
        for _ in 0..<20 {
            run(0.2) { _ in .slowLink }
            run(2.8) { _ in .busyPage }
        }
        #expect(moves.isEmpty && chooser.rung == 0, "\(moves)")
    }

    @Test mutating func aSlowLinkStillGoesDownWithinASecond() {
        run(2) { _ in .good }
        run(1) { _ in .slowLink }
        #expect(moves.map(\.rung) == [1], "\(moves)")
    }

    @Test mutating func aSlowJPEGLinkStillGoesDownWithinASecondAndAHalf() {
        run(2) { _ in .good }
        run(1.5) { _ in .slowJPEGLink }
        #expect(moves.map(\.rung) == [1], "\(moves)")
    }

    @Test mutating func aLinkThatCarriesOnlyTheMiddleRungMovesAtMostTwiceAMinute() {
        // Rung 0 does not fit, rung 1 does: the viewer goes down, tries rung 0, comes back …
        run(180) { rung in rung == 0 ? .slowLink : .good }
        #expect(chooser.rung == 1)
        #expect(moves(from: 0, to: 60) <= 3, "the move down, one try and its way back: \(moves)")
        for minute in 1..<3 {
            let count = moves(from: Double(minute) * 60, to: Double(minute + 1) * 60)
            #expect(count <= 2, "minute \(minute + 1): \(count) moves (\(moves))")
        }
        #expect(moves.contains { $0.at > .seconds(60) && $0.rung == 0 }, "it still tries the larger rung now and then")
    }

    @Test mutating func aLinkThatRecoversIsClimbedWithinSeconds() {
        run(2) { _ in .good }
        run(2.5) { _ in .slowLink }
        #expect(chooser.rung == 2, "\(moves)")
        moves.removeAll()
        run(6) { _ in .good }
        #expect(moves.map(\.rung) == [1, 0], "moved down only, never undone: climbs come at once (\(moves))")
    }

    @Test mutating func aClimbUndoneWaitsAMinuteBeforeTheNext() {
        run(2) { _ in .good }
        run(1) { _ in .slowLink }
        run(2.5) { _ in .good }  // settled, then healthy for the hold: climbs to rung 0 …
        run(0.75) { _ in .slowLink }  // … which lags: back to rung 1
        #expect(moves.map(\.rung) == [1, 0, 1], "\(moves)")
        run(55) { _ in .good }
        #expect(moves.count == 3, "no climb within a minute of the undone one: \(moves)")
        run(6) { _ in .good }
        #expect(moves.last?.rung == 0, "then it climbs again: \(moves)")
    }
}
