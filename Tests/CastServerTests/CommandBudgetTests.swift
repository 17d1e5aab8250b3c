@testable import CastServer
import Testing

@Suite struct CommandBudgetTests {
    @Test func allowsABurstThenTheSteadyRate() {
        var budget = CommandBudget()
        let start = ContinuousClock.now
        var granted = 0
        for _ in 0..<200 where budget.spend(now: start) { granted += 1 }
        #expect(granted == Int(CommandBudget.capacity))
        #expect(budget.refusedInEpisode == 200 - granted)
        // One second later the bucket has refilled by the steady rate.
        granted = 0
        for _ in 0..<200 where budget.spend(now: start + .seconds(1)) { granted += 1 }
        #expect(granted == Int(CommandBudget.perSecond))
    }

    /// A flood at twice the steady rate wins a command every 1/60 s yet is exhausted within
    /// seconds; a client that pauses until the bucket is full starts a new episode.
    @Test func aSustainedFloodIsExhaustedAndAPauseForgivesIt() {
        var budget = CommandBudget()
        let start = ContinuousClock.now
        var sent = 0
        while !budget.exhausted && sent < 10_000 {
            _ = budget.spend(now: start + .milliseconds(sent * 1000 / 120))
            sent += 1
        }
        #expect(budget.exhausted)
        #expect(sent < 120 * 12, "exhausted after \(sent) commands at 120 a second")
        let later = start + .milliseconds(sent * 1000 / 120) + .seconds(3)
        let granted = budget.spend(now: later)
        #expect(granted)
        #expect(budget.refusedInEpisode == 0 && !budget.exhausted)
    }
}
