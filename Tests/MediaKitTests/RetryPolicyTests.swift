@testable import MediaKit
import Testing

@Suite struct RetryPolicyTests {
    @Test func delaysDoubleFromOneSecondUpToTenAndStayThere() {
        var policy = RetryPolicy()
        let delays = (0..<8).map { _ in policy.nextDelay() }
        #expect(delays == [1, 2, 4, 8, 10, 10, 10, 10].map { Duration.seconds($0) })
        #expect(policy.failures == 8)
    }

    @Test func aSuccessfulFrameStartsOverFromTheFirstDelay() {
        var policy = RetryPolicy()
        _ = (0..<5).map { _ in policy.nextDelay() }
        policy.reset()
        #expect(policy.failures == 0)
        #expect(policy.nextDelay() == .seconds(1))
        #expect(policy.nextDelay() == .seconds(2))
    }

    @Test func otherBoundsAndManyFailuresStayCapped() {
        var policy = RetryPolicy(initial: .milliseconds(300), maximum: .seconds(1))
        #expect([policy.nextDelay(), policy.nextDelay(), policy.nextDelay()]
            == [.milliseconds(300), .milliseconds(600), .seconds(1)])
        for _ in 0..<10_000 { _ = policy.nextDelay() }
        #expect(policy.nextDelay() == .seconds(1))
    }
}
