import Testing
@testable import FilterKit

@Suite("Split chooser")
struct SplitChooserTests {
    /// Runs `frames` frames through `chooser`, each taking `whole` or `split` seconds as chosen;
    /// returns the choices.
    static func run(_ chooser: inout SplitChooser, frames: Int, whole: Double, split: Double) -> [Bool] {
        (0..<frames).map { _ in
            let splits = chooser.splitsNext
            chooser.record(seconds: splits ? split : whole)
            return splits
        }
    }

    @Test("A trial alternating the two ways, then the faster one until the next trial")
    func choosesTheFasterWay() {
        let trial = SplitChooser.trialFrames, decided = SplitChooser.decidedFrames
        var chooser = SplitChooser()
        let choices = Self.run(&chooser, frames: 2 * trial + decided, whole: 0.004, split: 0.003)
        #expect(choices[..<(2 * trial)] == ArraySlice((0..<(2 * trial)).map { $0 % 2 == 1 }))
        #expect(choices[(2 * trial)...].allSatisfy { $0 }, "splitting was faster")
        // The next trial finds whole frames faster now (the other core got busy): no more splits.
        let next = Self.run(&chooser, frames: 2 * trial + 10, whole: 0.0005, split: 0.0008)
        #expect(next[..<(2 * trial)] == choices[..<(2 * trial)])
        #expect(next[(2 * trial)...].allSatisfy { !$0 }, "whole was faster")
    }

    @Test("Splitting must win clearly: a few percent is noise")
    func smallGainKeepsFramesWhole() {
        var chooser = SplitChooser()
        _ = Self.run(&chooser, frames: 2 * SplitChooser.trialFrames, whole: 0.00100, split: 0.00095)
        #expect(!chooser.splitsNext)
    }

    @Test("A trial's one slow frame (tables built on the first frame) does not decide")
    func slowestFrameIsDropped() {
        var chooser = SplitChooser()
        chooser.record(seconds: 0.090)  // the first frame, whole, builds the maps
        _ = Self.run(&chooser, frames: 2 * SplitChooser.trialFrames - 1, whole: 0.001, split: 0.002)
        #expect(!chooser.splitsNext)
    }

    @Test("With two threads a runner still gives what one thread gives, frame after frame")
    func runnerWithThreadsMatchesOneThread() throws {
        let selection = FilterSelection(try FilterChain([FilterSettings(name: "gaussianBlur"), FilterSettings(name: "sepia")]))
        let one = FilterRunner(selection: selection), two = FilterRunner(selection: selection, threads: 2)
        let original = Frame.random(width: 320, height: 180, seed: 5)
        // Through both trials and into the decided stretch.
        for _ in 0..<(2 * SplitChooser.trialFrames + 2) {
            let a = original.clone(), b = original.clone()
            one.apply(to: a)
            two.apply(to: b)
            #expect(a.samples == b.samples)
        }
    }
}
