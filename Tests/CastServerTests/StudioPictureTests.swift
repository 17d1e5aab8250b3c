@testable import CastServer
import CastProtocol
import FilterKit
@testable import MediaKit
import Testing

/// Studio mode's pictures (issue 26.2): the preview's outputs get the same source frame through
/// the preview's chain, after the program's and only while the loop keeps up; a fading take mixes
/// the old chain's picture into the new one's. The processing turn runs real filters on real
/// frames; the outputs are a recording stand-in of our own `FrameOutput`.
@Suite struct StudioPictureTests {
    /// An output that keeps the luma of the first pixel and the time of every frame it is handed.
    final class Seen: FrameOutput {
        let wants: OutputDemand
        var lumas: [UInt8] = []
        var contexts: [FrameContext] = []
        var times: [Double] = []
        init(_ wants: OutputDemand) { self.wants = wants }
        func demand(now: ContinuousClock.Instant) -> OutputDemand { wants }
        func take(_ frame: Frame, _ context: FrameContext) {
            lumas.append(frame.y.row(0)[0])
            contexts.append(context)
            times.append(frame.time)
        }
    }

    static let watched = OutputDemand(filtered: true, placeholder: true, rerender: true, isActive: true)

    /// A turn over `studio` whose program shows `program`, and a 4×4 source frame of luma 100.
    static func turn(program: FilterChain, studio: Studio, late: Bool = false) -> (ProcessingTurn, Frame) {
        let chains = ProcessingTurn.Chains(studio: studio, preview: FilterRunner(selection: studio.preview),
                                           fadeFrom: FilterRunner(selection: studio.fadeFrom), isLate: { late })
        let turn = ProcessingTurn(width: 4, height: 4, runner: FilterRunner(selection: FilterSelection(program)), chains: chains,
                                  counters: ProcessingCounters(), offlineReason: { _ in nil })
        let frame = Frame(width: 4, height: 4)
        frame.y.fill(100)
        frame.u.fill(128)
        frame.v.fill(128)
        return (turn, frame)
    }

    @Test func thePreviewGetsTheSameSourceFrameThroughItsOwnChain() throws {
        let studio = Studio(rerender: RerenderRequest(wake: {}))
        studio.select(FilterChain(try FilterSettings(name: "invert")))
        let (turn, frame) = Self.turn(program: .none, studio: studio)
        let outputs = [Seen(Self.watched), Seen(Self.watched.ofPreview)]
        let plan = FramePlan.make(FramePlan.Situation(hasFrame: true), demands: outputs.map { $0.demand(now: .now) })
        #expect(plan == .deliver(source: [], filtered: [0], second: [.preview: [1]]))
        turn.keep(frame)
        turn.execute(plan, frame: frame, playback: PlaybackState(isLive: false, speed: 1), outputs: outputs)
        #expect(outputs[0].lumas == [100], "the program: no filter")
        #expect(outputs[1].lumas == [155], "the preview: the source inverted, not the program's picture")

        let rerender = FramePlan.make(FramePlan.Situation(rerenderRequested: true, hasLastFrame: true), demands: outputs.map { $0.demand(now: .now) })
        #expect(rerender == .rerender(source: [], filtered: [0], second: [.preview: [1]]))
        turn.execute(rerender, frame: nil, playback: PlaybackState(isLive: false, speed: 1), outputs: outputs)
        #expect(outputs[1].lumas == [155, 155] && outputs[1].contexts.last?.kind == .rerender)
    }

    @Test func aPreviewChangeReRendersThePreviewAlone() {
        let demands = [Self.watched, Self.watched.ofPreview, OutputDemand(source: true, rerender: true, isActive: true)]
        let situation = FramePlan.Situation(previewRerenderRequested: true, hasLastFrame: true)
        #expect(FramePlan.make(situation, demands: demands) == .rerender(source: [], filtered: [], second: [.preview: [1]]),
                "the program's viewers are not sent the same picture again")
        #expect(FramePlan.make(situation, demands: Array(demands[0...0])) == .idle, "nobody watches the preview")
        #expect(FramePlan.make(FramePlan.Situation(rerenderRequested: true, hasLastFrame: true), demands: demands)
                == .rerender(source: [2], filtered: [0], second: [.preview: [1]]), "a program's re-render shows the preview too")
    }

    @Test func aLateLoopDropsThePreviewFrameNotTheProgramOne() throws {
        let studio = Studio(rerender: RerenderRequest(wake: {}))
        studio.select(FilterChain(try FilterSettings(name: "invert")))
        let (turn, frame) = Self.turn(program: .none, studio: studio, late: true)
        let outputs = [Seen(Self.watched), Seen(Self.watched.ofPreview)]
        turn.keep(frame)
        turn.execute(.deliver(source: [], filtered: [0], second: [.preview: [1]]), frame: frame, playback: PlaybackState(isLive: false, speed: 1), outputs: outputs)
        #expect(outputs[0].lumas == [100] && outputs[1].lumas.isEmpty)
    }

    @Test func aFadeMixesTheOldChainIntoTheNewAndEndsWithTheNewAlone() throws {
        let studio = Studio(rerender: RerenderRequest(wake: {}))
        // Taken half a second into a one-second fade from invert (155) to none (100).
        studio.startFade(from: FilterChain(try FilterSettings(name: "invert")), seconds: 1, at: .now - .milliseconds(500))
        let (turn, frame) = Self.turn(program: .none, studio: studio)
        let program = Seen(Self.watched)
        turn.keep(frame)
        turn.execute(.deliver(source: [], filtered: [0]), frame: frame, playback: PlaybackState(isLive: false, speed: 1), outputs: [program])
        let mixed = try #require(program.lumas.first)
        #expect((115...128).contains(mixed), "about halfway between 155 and 100, a little past half: \(mixed)")
        #expect(studio.isFading(at: .now))

        studio.startFade(from: FilterChain(try FilterSettings(name: "invert")), seconds: 1, at: .now - .milliseconds(1001))
        frame.y.fill(100)
        turn.keep(frame)
        turn.execute(.deliver(source: [], filtered: [0]), frame: frame, playback: PlaybackState(isLive: false, speed: 1), outputs: [program])
        #expect(program.lumas.last == 100, "past its duration: the new chain alone")
        #expect(!studio.isFading(at: .now) && studio.fadeProgress(at: .now) == nil, "the fade is over")
    }

    @Test func crossFadeWeighsEveryPlane() {
        let old = Frame(width: 6, height: 4), new = Frame(width: 6, height: 4)
        for (plane, (a, b)) in zip(0..<3, [(0, 200), (250, 50), (10, 10)]) {
            old.plane(plane).fill(UInt8(a))
            new.plane(plane).fill(UInt8(b))
        }
        CrossFade.mix(old, into: new, progress: 0.25)
        #expect(new.y.row(3)[5] == 50 && new.u.row(1)[2] == 200 && new.v.row(0)[0] == 10)
        CrossFade.mix(old, into: new, progress: 0)
        #expect(new.y.row(0)[0] == 0, "progress 0: the old picture")
    }
}
