import FilterKit
import Foundation
import Synchronization
@testable import StyleKit
import Testing

/// The network's threads beside the frame path: at a lower priority, and ended and waited for at
/// the stop (the process must not tear OpenVINO down under a run), through the real network.
@Suite(.serialized) struct StyleWorkersTests {
    typealias Gate = StyleRefresherTests.Gate

    /// The stop ends the worker after its run in progress — not before it (it waits), and without
    /// painting the frame submitted meanwhile.
    @Test func theStopWaitsForTheRunInProgressAndEndsTheWorker() throws {
        let gate = Gate(free: 1)
        let engine = try StyleEngine(root: StyleRefresherTests.root, height: StyleRefresherTests.lines,
                                     refreshing: .init(beforeRun: { gate.pass() }))
        let frames = try StyleRefresherTests.pan(3, step: 2)
        let link = try StyleRefresherTests.link(engine)
        _ = StyleRefresherTests.through(link, frames[0])
        _ = StyleRefresherTests.through(link, frames[1])
        gate.waitUntilHeld()
        _ = StyleRefresherTests.through(link, frames[2])  // waits in the mailbox
        #expect(!engine.stop(within: .milliseconds(300)), "a run in progress is waited for")
        gate.release()
        #expect(engine.stop(within: .seconds(10)), "the worker ended after its run")
        #expect(gate.count == 2, "the frame waiting was not painted after the stop: \(gate.count) runs")
    }

    /// A link styled after the stop starts no thread and passes its frames unchanged, at once.
    @Test func aLinkAfterTheStopPassesFramesUnchanged() throws {
        let engine = try StyleEngine(root: StyleRefresherTests.root, height: StyleRefresherTests.lines)
        #expect(engine.stop(within: .seconds(1)))
        let frame = try StyleRefresherTests.pan(1, step: 2)[0]
        let start = ContinuousClock.now
        let out = StyleRefresherTests.through(try StyleRefresherTests.link(engine), frame)
        #expect(ContinuousClock.now - start < .seconds(1))
        #expect(samples(out) == samples(frame))
    }

    /// The worker runs the network at ``StyleWorkers/niceness``, under the frame path's 0.
    @Test func theWorkerRunsAtALowerPriority() throws {
        let seen = Mutex<[Int32]>([])
        let engine = try StyleEngine(root: StyleRefresherTests.root, height: StyleRefresherTests.lines, refreshing: .init(beforeRun: {
            errno = 0
            let nice = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            seen.withLock { $0.append(errno == 0 ? nice : -100) }
        }))
        let link = try StyleRefresherTests.link(engine)
        _ = StyleRefresherTests.through(link, try StyleRefresherTests.pan(1, step: 2)[0])
        #expect(seen.withLock { $0 } == [StyleWorkers.niceness])
        #expect(getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) == 0, "the caller's own priority unchanged")
        engine.stop(within: .seconds(10))
    }
}
