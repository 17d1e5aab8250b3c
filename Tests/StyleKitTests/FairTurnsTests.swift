import Foundation
@testable import StyleKit
import Testing

/// The style workers' turns at the network: in the order asked, so that a worker that asks again
/// at once waits behind the others (a plain mutex let one channel's worker paint on while four
/// others waited for minutes).
@Suite struct FairTurnsTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [Int] = []
        func note(_ id: Int) { lock.withLock { entries.append(id) } }
        var all: [Int] { lock.withLock { entries } }
    }

    @Test func workersAskingAgainAtOnceTakeTurnsInOrder() {
        let turns = FairTurns(), log = Log(), group = DispatchGroup()
        let workers = 3, rounds = 40
        for id in 0..<workers {
            group.enter()
            Thread {
                for _ in 0..<rounds {
                    turns.withTurn {
                        log.note(id)
                        usleep(200)  // a run's work, during which the others ask
                    }
                }
                group.leave()
            }.start()
        }
        group.wait()
        let entries = log.all
        #expect(entries.count == workers * rounds)
        // Once all three wait, each gets a turn in every three; at the start and the end a worker
        // may run ahead while the others start or after they finished.
        let middle = entries[(workers * 5)..<(entries.count - workers * 5)]
        var longest = 1, run = 1
        for (previous, next) in zip(middle, middle.dropFirst()) {
            run = previous == next ? run + 1 : 1
            longest = max(longest, run)
        }
        #expect(longest == 1, "a worker took \(longest) turns in a row: \(Array(middle))")
    }
}
