@testable import StyleKit
import Testing

/// The network's height against the load, on runs the test makes up and a clock it moves.
struct StyleHeightChooserTests {
    static let heights = [360, 288, 240, 216, 180, 144]
    let start = ContinuousClock.now

    /// A second's runs (``StyleHeightChooser/window``) of `milliseconds` at `height`, `at` seconds
    /// after `start`; what the chooser said after the last (nothing before it, checked).
    func second(_ chooser: inout StyleHeightChooser, _ milliseconds: Double, at height: Int, _ seconds: Double) -> Int? {
        let said = (0..<StyleHeightChooser.window).map { _ in
            chooser.note(.milliseconds(milliseconds), at: height, now: start + .seconds(seconds))
        }
        #expect(said.dropLast().allSatisfy { $0 == nil }, "a height chosen before the second's runs were all in")
        return said[said.count - 1]?.height
    }

    @Test func runsWithinTheBudgetKeepTheHeight() {
        var chooser = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        for index in 0..<5 { #expect(second(&chooser, 19, at: 180, Double(index)) == nil) }
    }

    @Test func aSecondOverTheBudgetStepsDownToWhatFits() {
        var chooser = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        // 31 ms at 216 lines: 21.5 at 180, 14.4 at 144.
        #expect(second(&chooser, 31, at: 216, 0) == 144)
        var judged = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        for index in 0..<StyleHeightChooser.window - 1 { _ = judged.note(.milliseconds(index < 12 ? 25 : 40), at: 180, now: start) }
        #expect(judged.note(.milliseconds(40), at: 180, now: start) == .init(height: 144, median: .milliseconds(40)),
                "the move names the median of the second's runs")
        var heavy = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        #expect(second(&heavy, 26, at: 216, 0) == 180, "26 ms at 216 lines is 18 at 180")
        var hopeless = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        #expect(second(&hopeless, 90, at: 360, 0) == 144, "nothing fits: the smallest")
        #expect(second(&hopeless, 40, at: 144, 1) == nil, "already the smallest")
    }

    @Test func theMedianDecidesNotASpike() {
        var chooser = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        var said: [Int?] = []
        for index in 0..<StyleHeightChooser.window {
            said.append(chooser.note(.milliseconds(index % 3 == 0 ? 60 : 18), at: 180, now: start)?.height)
        }
        #expect(said.allSatisfy { $0 == nil }, "a third of the runs slow: the median is within the budget")
    }

    @Test func roomStepsUpOneHeightButNotSoonAfterAStepDown() {
        var chooser = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        // 10 ms at 180 lines: 14.4 at 216 (under 0.85 × 20 = 17).
        #expect(second(&chooser, 10, at: 180, 0) == 216)
        #expect(second(&chooser, 14, at: 216, 1) == nil, "14 at 216 is 17.3 at 240: not under 17")
        #expect(second(&chooser, 40, at: 216, 2) == 144)
        #expect(second(&chooser, 8, at: 144, 3) == nil, "room, but a step down 1 s ago")
        #expect(second(&chooser, 8, at: 144, 2 + 20) == 180, "room, and the step down is 20 s old")
    }

    @Test func runsOfAnotherHeightAreNotJudged() {
        var chooser = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        #expect(second(&chooser, 50, at: 100, 0) == nil, "a frame smaller than the network")
        var restarted = StyleHeightChooser(heights: Self.heights, budget: .milliseconds(20))
        for _ in 0..<(StyleHeightChooser.window - 1) { _ = restarted.note(.milliseconds(50), at: 180, now: start) }
        restarted.restart()
        #expect(restarted.note(.milliseconds(50), at: 180, now: start) == nil, "the runs before the restart are forgotten")
    }
}
