@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// The compare view's server side (issue 26.2): the source's renditions get the frame before the
/// chain, of the same source time as the program's, only while somebody watches one; `setCompare`
/// (control only) sets `state.compare` for every viewer. Real filters on real frames; the core as
/// lws drives it, no socket.
@Suite struct ComparePictureTests {
    let io = ServerCoreTests()
    typealias Seen = StudioPictureTests.Seen
    static let watched = StudioPictureTests.watched

    @Test func theSourceGetsTheFrameBeforeTheChainOfTheSameTime() throws {
        let studio = Studio(rerender: RerenderRequest(wake: {}))
        studio.select(FilterChain(try FilterSettings(name: "invert")))
        let (turn, frame) = StudioPictureTests.turn(program: FilterChain(try FilterSettings(name: "invert")), studio: studio, late: true)
        frame.time = 1.24
        let outputs = [Seen(Self.watched), Seen(Self.watched.of(.preview)), Seen(Self.watched.of(.source))]
        let plan = FramePlan.make(FramePlan.Situation(hasFrame: true), demands: outputs.map { $0.demand(now: .now) })
        #expect(plan == .deliver(source: [], filtered: [0], second: [.preview: [1], .source: [2]]))
        turn.keep(frame)
        turn.execute(plan, frame: frame, playback: PlaybackState(isLive: false, speed: 1), outputs: outputs)
        #expect(outputs[0].lumas == [155], "the program: inverted")
        #expect(outputs[2].lumas == [100], "the source: as it came, though the program's chain ran in place")
        #expect(outputs[1].lumas.isEmpty, "a late loop drops the preview's frame, never the source's")
        #expect(outputs[2].contexts.first?.isFiltered == false)
        #expect(outputs[0].times == [1.24] && outputs[2].times == [1.24], "both pictures carry the source frame's time")
    }

    @Test func theSourceIsReRenderedWithTheProgramNeverForThePreviewAlone() {
        let demands = [Self.watched, Self.watched.of(.preview), Self.watched.of(.source)]
        #expect(FramePlan.make(FramePlan.Situation(rerenderRequested: true, hasLastFrame: true), demands: demands)
                == .rerender(source: [], filtered: [0], second: [.preview: [1], .source: [2]]), "a newcomer gets both pictures")
        #expect(FramePlan.make(FramePlan.Situation(previewRerenderRequested: true, hasLastFrame: true), demands: demands)
                == .rerender(source: [], filtered: [], second: [.preview: [1]]), "a preview change leaves the source alone")
        let unwatched = [Self.watched, OutputDemand(declines: .noAudience).of(.source)]
        #expect(FramePlan.make(FramePlan.Situation(hasFrame: true), demands: unwatched) == .deliver(source: [], filtered: [0]),
                "nobody compares: no source picture is made")
    }

    @Test func anyWatcherWatchesTheSourceAndItIsEncodedOnlyMeanwhile() throws {
        let fixture = try CoreFixture(token: ServerCoreAccessTests.token, publicView: true)
        let core = fixture.core
        core.viewerConnected(2, token: nil, address: "viewer")
        let offered = try #require(StudioTests().texts(core)[2]?.first?["renditions"] as? [[String: Any]])
        #expect(offered.last?["id"] as? String == "source-48p" && offered.last?["source"] as? Bool == true)
        let index = try #require(fixture.main.outputs.offer.firstIndex { $0.second == .source })
        let stream = try #require(fixture.main.outputs.jpeg[index])
        #expect(!stream.demand(now: .now).isActive, "nobody compares: not encoded")

        io.send(#"{"type": "watch", "transport": "jpeg", "rendition": "source-48p", "id": 1}"#, from: 2, to: core)
        #expect(StudioTests().texts(core)[2]?.first?["type"] as? String == "ack", "a viewer that may only watch may watch the source")
        let demand = stream.demand(now: .now)
        #expect(demand.isActive && demand.second == .source && stream.audience.load(ordering: .relaxed) == 1)
        #expect(fixture.main.outputs.jpegRung(nearestWidth: 64) == 0, "MJPEG readers are never given the source's picture")
        core.viewerLeft(2)
        #expect(!stream.demand(now: .now).isActive, "the comparer left: not encoded")
    }

    @Test func onlyAControllerShowsTheComparisonToAll() throws {
        let fixture = try CoreFixture(token: ServerCoreAccessTests.token, publicView: true)
        let core = fixture.core
        let texts = StudioTests().texts
        core.viewerConnected(1, token: ServerCoreAccessTests.token, address: "controller")
        core.viewerConnected(2, token: nil, address: "viewer")
        #expect((texts(core)[2]?.first?["state"] as? [String: Any])?["compare"] == nil, "off and absent by default")

        io.send(#"{"type": "setCompare", "on": true, "mode": "side-by-side", "split": 0.7, "id": 2}"#, from: 2, to: core)
        let refused = texts(core)[2]?.first
        #expect(refused?["code"] as? String == "unauthorized" && refused?["id"] as? Int == 2, "\(String(describing: refused))")
        #expect(fixture.session.state(viewers: 2, fps: 0).compare == nil)

        io.send(#"{"type": "setCompare", "on": true, "mode": "side-by-side", "split": 0.7, "id": 3}"#, from: 1, to: core)
        let written = texts(core)
        #expect(written[1]?.first?["type"] as? String == "ack")
        let compare = try #require(written[2]?.last?["compare"] as? [String: Any], "every viewer is told")
        #expect(compare["on"] as? Bool == true && compare["mode"] as? String == "side-by-side" && compare["split"] as? Double == 0.7)

        io.send(#"{"type": "setCompare", "on": true, "split": 2, "id": 4}"#, from: 1, to: core)
        #expect(texts(core)[1]?.first?["code"] as? String == "out_of_range")
        io.send(#"{"type": "setCompare", "on": false, "id": 5}"#, from: 1, to: core)
        _ = texts(core)
        #expect(fixture.session.state(viewers: 2, fps: 0).compare == CompareView(on: false, mode: .sideBySide, split: 0.7))
    }
}
