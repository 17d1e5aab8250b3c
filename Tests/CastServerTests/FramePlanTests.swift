@testable import CastServer
import Testing

/// The processing loop's decision, case by case: what a turn does with a frame (or its lack)
/// for outputs that want different things.
@Suite struct FramePlanTests {
    /// The viewers (watching), an unfiltered recording, the publisher: the three kinds of output.
    static let viewers = OutputDemand(filtered: true, placeholder: true, rerender: true, isActive: true)
    static let unfilteredRecording = OutputDemand(source: true, rerender: true, isActive: true)
    static let publisher = OutputDemand(filtered: true, placeholder: true, rerender: true, isActive: true)
    static let nobodyWatching = OutputDemand(isActive: true, declines: .noAudience)

    typealias Situation = FramePlan.Situation

    @Test func aNewFrameGoesAsItIsAndFilteredOnceToWhoeverWantsIt() {
        let plan = FramePlan.make(Situation(hasFrame: true), demands: [Self.viewers, Self.unfilteredRecording, Self.publisher])
        #expect(plan == .deliver(source: [1], filtered: [0, 2]))
    }

    @Test func aFrameNobodyWantsIsDeliveredToNobodyAndNotFiltered() {
        #expect(FramePlan.make(Situation(hasFrame: true), demands: [Self.nobodyWatching]) == .deliver(source: [], filtered: []))
        #expect(FramePlan.make(Situation(hasFrame: true), demands: []) == .deliver(source: [], filtered: []))
    }

    @Test func aFrameArrivingWinsOverEverythingElse() {
        let busy = Situation(hasFrame: true, isOnline: false, placeholderDue: true, rerenderRequested: true, hasLastFrame: true)
        #expect(FramePlan.make(busy, demands: [Self.viewers]) == .deliver(source: [], filtered: [0]))
    }

    @Test func offlineThePlaceholderIsDrawnWhenDueOrAskedForAndNeverRecorded() {
        let demands = [Self.viewers, Self.unfilteredRecording, Self.publisher]
        #expect(FramePlan.make(Situation(isOnline: false, placeholderDue: true), demands: demands) == .placeholder(outputs: [0, 2]))
        #expect(FramePlan.make(Situation(isOnline: false, rerenderRequested: true), demands: demands) == .placeholder(outputs: [0, 2]))
        #expect(FramePlan.make(Situation(isOnline: false), demands: demands) == .idle, "not due: wait")
        #expect(FramePlan.make(Situation(isOnline: false, placeholderDue: true), demands: [Self.unfilteredRecording, Self.nobodyWatching]) == .idle)
    }

    @Test func pausedARequestedRerenderRedoesTheLastFrameForThoseWhoShowIt() {
        let demands = [Self.unfilteredRecording, Self.viewers, OutputDemand(source: true, isActive: true)]
        #expect(FramePlan.make(Situation(rerenderRequested: true, hasLastFrame: true), demands: demands)
                == .rerender(source: [0], filtered: [1]), "the recording holds its picture as it records: unfiltered")
        #expect(FramePlan.make(Situation(rerenderRequested: true), demands: demands) == .idle, "no frame to redo yet")
        #expect(FramePlan.make(Situation(hasLastFrame: true), demands: demands) == .idle, "nothing asked for")
        #expect(FramePlan.make(Situation(rerenderRequested: true, hasLastFrame: true), demands: [Self.nobodyWatching]) == .idle)
    }
}
