@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// Studio mode's chains (issue 26.1): the session keeps a preview beside the program, `take`
/// puts it on air, and only controllers are told the preview. Through the session and the core
/// as lws drives it; no socket.
@Suite struct StudioTests {
    let io = ServerCoreTests()

    @Test func thePreviewIsEditedApartAndTakenOnAir() throws {
        let session = try SessionTests.liveSession()
        try session.apply(.setFilter(name: "invert", params: [:]), from: 1)
        try session.apply(.setFilterChain([FilterLinkRequest(name: "sepia"), FilterLinkRequest(name: "vignette")], to: .preview), from: 1)
        try session.apply(.setParams(["intensity": 0.25], index: 0, to: .preview), from: 1)
        #expect(session.selection.chain.links.map(\.name) == ["invert"], "the program is untouched")
        #expect(session.studio.previewChain?.links.map(\.name) == ["sepia", "vignette"])
        #expect(session.studio.preview.chain.first["intensity"] == 0.25)
        #expect(session.state(viewers: 1, fps: 0).preview == session.studio.previewChain)
        #expect(session.rerender.count == 1 && session.studio.rerender.count == 2,
                "a preview change re-renders the preview's outputs, not the program's")

        try session.apply(.take(.cut), from: 1)
        #expect(session.selection.chain == session.studio.previewChain, "the program is the preview's chain")
        try session.apply(.setParams(["intensity": 0.75], index: 0, to: .preview), from: 1)
        #expect(session.selection.chain.first["intensity"] == 0.25, "the preview goes on apart from the program")
    }

    @Test(arguments: [SessionCommand.take(.cut), .take(.fade(seconds: 1)), .setParams([:], index: nil, to: .preview)])
    func withNothingInPreviewTakeAndSetParamsAreRefused(_ command: SessionCommand) throws {
        let session = try SessionTests.liveSession()
        try session.apply(.setFilter(name: "invert", params: [:]), from: 1)
        do {
            try session.apply(command, from: 1)
            Issue.record("\(command) was accepted with nothing in preview")
        } catch {
            #expect(error.code == .invalidArgument && error.message.contains("the preview has no chain yet"), "\(error)")
        }
        #expect(session.selection.chain.links.map(\.name) == ["invert"] && session.studio.previewChain == nil)
    }

    @Test func aRefusedPreviewChangeChangesNothing() throws {
        let session = try SessionTests.liveSession()
        try session.apply(.setFilter(name: "sepia", params: [:], to: .preview), from: 1)
        #expect(throws: ProtocolError.self) { try session.apply(.setFilter(name: "nope", params: [:], to: .preview), from: 1) }
        #expect(throws: ProtocolError.self) { try session.apply(.setParams(["intensity": 2], index: nil, to: .preview), from: 1) }
        #expect(session.studio.previewChain?.first.name == "sepia" && session.studio.previewChain?.first["intensity"] == 1)
    }

    /// The text messages each viewer was written until the core asked for no more writes, as
    /// raw JSON objects (``ServerCoreTests/drainAll(_:)`` keeps only their strings and numbers).
    func texts(_ core: ServerCore) -> [ConnectionID: [[String: Any]]] {
        var texts: [ConnectionID: [[String: Any]]] = [:]
        for _ in 0..<100 {
            let requests = core.takeWriteRequests()
            if requests.isEmpty { break }
            for id in requests {
                _ = core.writeViewer(id) { bytes, count, kind in
                    if kind == .text, let object = try? JSONSerialization.jsonObject(with: Data(bytes: bytes, count: count)) {
                        texts[id, default: []].append(object as? [String: Any] ?? [:])
                    }
                    return true
                }
            }
        }
        return texts
    }

    @Test func onlyControllersAreToldThePreviewAndOnlyTheyMayEditIt() throws {
        let fixture = try CoreFixture(token: ServerCoreAccessTests.token, publicView: true)
        let core = fixture.core
        core.viewerConnected(1, token: ServerCoreAccessTests.token, address: "controller")
        core.viewerConnected(2, token: nil, address: "viewer")
        let hellos = texts(core)
        #expect((hellos[1]?.first?["state"] as? [String: Any])?["preview"] is NSNull, "a controller's hello: no preview yet")
        #expect(hellos[2]?.first?["type"] as? String == "hello" && (hellos[2]?.first?["state"] as? [String: Any])?["preview"] == nil)

        io.send(#"{"type": "setFilter", "name": "sepia", "to": "preview", "id": 1}"#, from: 1, to: core)
        var written = texts(core)
        let controller = written[1] ?? []
        #expect(controller.map { $0["type"] as? String } == ["ack", "activity", "state"])
        #expect((controller.last?["preview"] as? [[String: Any]])?.first?["name"] as? String == "sepia")
        #expect(written[2]?.map { $0["type"] as? String } == ["activity", "state"] && written[2]?.last?["preview"] == nil,
                "a viewer is told the state changed, never the preview")
        io.send(#"{"type": "setParams", "params": {"intensity": 0.5}, "to": "preview", "id": 2}"#, from: 2, to: core)
        let viewer = texts(core)[2] ?? []
        #expect(viewer.first?["code"] as? String == "unauthorized" && viewer.first?["id"] as? Int == 2, "\(viewer)")
        #expect(fixture.session.studio.previewChain?.first["intensity"] == 1)

        io.send(#"{"type": "take", "transition": "fade", "duration": 0.5, "id": 3}"#, from: 1, to: core)
        written = texts(core)
        #expect(written[1]?.first?["type"] as? String == "ack")
        let after = written[2] ?? []
        #expect(after.last?["type"] as? String == "state" && after.last?["preview"] == nil)
        #expect((after.last?["program"] as? [[String: Any]])?.first?["name"] as? String == "sepia")
    }

    @Test func onlyAControllerWatchesThePreviewAndTheServerNeverChoosesIt() throws {
        let fixture = try CoreFixture(token: ServerCoreAccessTests.token, publicView: true)
        let core = fixture.core
        core.viewerConnected(1, token: ServerCoreAccessTests.token, address: "controller")
        core.viewerConnected(2, token: nil, address: "viewer")
        let hello = texts(core)[2]?.first
        let offered = try #require(hello?["renditions"] as? [[String: Any]])
        #expect(offered.map { $0["id"] as? String } == ["jpeg-64", "jpeg-32", "preview-48p", "source-48p"])
        #expect(offered.map { $0["preview"] as? Bool } == [nil, nil, true, nil], "the preview's rendition says so")
        let preview = try #require(fixture.main.outputs.offer.firstIndex { $0.isPreview })
        let stream = try #require(fixture.main.outputs.jpeg[preview])

        io.send(#"{"type": "watch", "transport": "jpeg", "rendition": "preview-48p", "id": 5}"#, from: 2, to: core)
        let refused = texts(core)[2]?.first
        #expect(refused?["code"] as? String == "unauthorized" && refused?["id"] as? Int == 5, "\(String(describing: refused))")
        io.send(#"{"type": "watch", "transport": "jpeg", "id": 6}"#, from: 2, to: core)
        _ = texts(core)
        #expect(core.viewers[2]?.session.watching.rendition == 0 && stream.audience.load(ordering: .relaxed) == 0)

        io.send(#"{"type": "watch", "transport": "jpeg", "rendition": "preview-48p", "id": 7}"#, from: 1, to: core)
        #expect(texts(core)[1]?.first?["type"] as? String == "ack")
        #expect(stream.audience.load(ordering: .relaxed) == 1, "the preview is encoded for its controller")
        #expect(fixture.main.outputs.jpegRung(nearestWidth: 64) == 0, "MJPEG readers are never given the preview")
        core.viewerLeft(1)
        #expect(stream.audience.load(ordering: .relaxed) == 0, "nobody watches the preview: it is not encoded")
    }
}
