@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// Channels added and removed at run time (`PUT`/`DELETE /api/channels/NAME`, admin), through the
/// core as the lws adapter drives it: the route, the body in pieces, the desk's worker opening a
/// real test pattern (or failing to open a missing file), the answer at the wake-up. No socket.
@Suite struct ServerCoreChannelAdminTests {
    let io = ServerCoreTests()
    static let admin = "boss"

    func fixture(maxChannels: Int = 16) throws -> CoreFixture {
        try CoreFixture(token: "secret", adminToken: Self.admin, maxChannels: maxChannels)
    }

    /// `PUT /api/channels/NAME` with `body` on connection `id`, as lws delivers it: the route, the
    /// admission, the body in two pieces, its end; then, when it went to the desk, its answer.
    func put(_ name: String, _ body: String, on id: ConnectionID = 50, length: Int? = nil, _ fixture: CoreFixture) -> BodyStep {
        let core = fixture.core
        let request = HTTPRequest(method: .put, path: "/api/channels/\(name)", arguments: ["token": Self.admin],
                                  headers: [.contentLength: "\(length ?? body.utf8.count)"])
        let routed = core.answer(request)
        guard case .pending(let pending) = routed else {
            guard case .status(let code, let message, _) = routed else { return .refuse(0, "\(routed)") }
            return .refuse(code, message)
        }
        let admitted = core.start(pending, on: id, request)
        guard case .takeBody = admitted else { return admitted }
        let bytes = Array(body.utf8)
        for piece in [bytes.prefix(bytes.count / 2), bytes.dropFirst(bytes.count / 2)] {
            let step = piece.withUnsafeBytes { core.bodyPiece(id, $0) }
            guard step == .receiving else { return step }
        }
        let complete = core.bodyComplete(id)
        guard case .waiting = complete else { return complete }
        return answer(for: id, fixture)
    }

    /// The answer the desk's worker left for connection `id`, once it finished.
    func answer(for id: ConnectionID, _ fixture: CoreFixture) -> BodyStep {
        fixture.core.channelDesk.waitForWorkers()
        return fixture.core.takeChannelAnswers().first { $0.0 == id }?.1 ?? .refuse(0, "no answer")
    }

    func delete(_ name: String, on id: ConnectionID = 60, _ fixture: CoreFixture) -> BodyStep {
        let request = HTTPRequest(method: .delete, path: "/api/channels/\(name)", arguments: ["token": Self.admin])
        let routed = fixture.core.answer(request)
        guard case .pending(let pending) = routed else { return .refuse(routed.code, "\(routed)") }
        let step = fixture.core.start(pending, on: id, request)
        guard case .waiting = step else { return step }
        return answer(for: id, fixture)
    }

    func json(_ step: BodyStep) -> [String: Any]? {
        guard case .answer(_, let body) = step else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
    }

    @Test func aChannelAddedAtRunTimeIsServedWithItsFilterAndRemovedWithACloseNamingIt() throws {
        let fixture = try fixture()
        defer { fixture.core.channelDesk.stopAll() }
        let added = put("cam", #"{"input": "test:64x48@30", "filter": {"name": "sepia"}}"#, fixture)
        guard case .answer(201, _) = added, let summary = json(added) else { Issue.record("\(added)"); return }
        #expect(summary["name"] as? String == "cam" && summary["snapshot"] as? String == "/snapshot.jpg?channel=cam")
        #expect((summary["filter"] as? [[String: Any]])?.first?["name"] as? String == "sepia")
        let cam = try #require(fixture.core.channels[try ChannelName("cam")])
        #expect(fixture.core.channels.all.map(\.name.description) == ["main", "cam"])
        #expect(cam.session.library?.recordings.root.hasSuffix("/recordings/cam") == true)

        fixture.core.viewerConnected(1, token: "secret", address: "a", channel: "cam")
        fixture.core.viewerConnected(2, token: "secret", address: "b")
        guard case .json(let hello) = io.drain(1, fixture.core).first else { Issue.record("no hello"); return }
        #expect(hello["channel"] == "cam")
        fixture.core.watcherJoined(3, .mjpeg(rendition: 0), of: cam)

        let removed = delete("cam", fixture)
        #expect(json(removed)?["removed"] as? String == "cam", "\(removed)")
        var outcome = ServerCore.WriteOutcome.written
        for _ in 0..<10 where outcome == .written {
            outcome = fixture.core.writeViewer(1) { _, _, _ in true }
        }
        #expect(outcome == .close(status: Int32(WebSocketClose.goingAway), reason: "channel cam was removed"))
        #expect(fixture.core.channels[try ChannelName("cam")] == nil && fixture.core.watchers[3] == nil)
        #expect(io.types(io.drain(2, fixture.core)).allSatisfy { !$0.hasPrefix("close") }, "main's viewers stay")
        fixture.core.viewerLeft(1)
        #expect(fixture.core.viewers.count == 1)
    }

    /// The server stopping while a DELETE is under way waits for that channel to stop (its
    /// recording finished and kept): the worker has posted its answer when `stopAll` returns.
    @Test func theServersStopWaitsForARemovalUnderWay() throws {
        let fixture = try fixture()
        guard case .answer(201, _) = put("cam", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("not added"); return }
        let request = HTTPRequest(method: .delete, path: "/api/channels/cam", arguments: ["token": Self.admin])
        guard case .pending(let pending) = fixture.core.answer(request),
              case .waiting = fixture.core.start(pending, on: 60, request) else { Issue.record("not removing"); return }
        fixture.core.channelDesk.stopAll()
        let answers = fixture.core.takeChannelAnswers()
        #expect(answers.contains { $0.0 == 60 }, "stopAll returned before the removal finished: \(answers)")
    }

    @Test func badNamesBodiesAndFiltersAre400AndNothingIsAdded() throws {
        let fixture = try fixture()
        let cases: [(String, String)] = [
            ("Cam", #"{"input": "test:64x48@30"}"#), ("cam", "not json"), ("cam", "[1]"), ("cam", #"{"input": ""}"#),
            ("cam", #"{"input": "test:64x48@30", "extra": 1}"#), ("cam", #"{"input": "test:64x48@30", "filter": {"name": "nosuch"}}"#),
            ("cam", #"{"input": "test:64x48@30", "filter": "sepia"}"#),
        ]
        for (name, body) in cases {
            let step = put(name, body, fixture)
            guard case .refuse(400, let message) = step else { Issue.record("\(name) \(body): \(step)"); continue }
            #expect(!message.isEmpty)
        }
        guard case .refuse(413, _) = put("cam", "{}", length: 64 * 1024 + 1, fixture) else { Issue.record("no 413"); return }
        #expect(fixture.core.channels.all.count == 1)
    }

    @Test func anInputThatCannotBeOpenedIsRefusedWithItsReasonAndNothingIsAdded() throws {
        let fixture = try fixture()
        let step = put("gone", #"{"input": "\#(fixture.base)/missing.mp4"}"#, fixture)
        guard case .refuse(400, let message) = step else { Issue.record("\(step)"); return }
        #expect(message.contains("cannot be opened") && message.contains("missing.mp4"), "\(message)")
        #expect(fixture.core.channels.all.count == 1 && fixture.core.channelChanges.isEmpty)
    }

    @Test func takenNamesTheDefaultChannelAndMaxChannelsAreRefused() throws {
        let fixture = try fixture(maxChannels: 2)
        defer { fixture.core.channelDesk.stopAll() }
        guard case .refuse(409, _) = put("main", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("main exists"); return }
        guard case .answer(201, _) = put("cam", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("not added"); return }
        guard case .refuse(409, _) = put("cam", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("cam exists"); return }
        guard case .refuse(409, let full) = put("third", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("no 409 at the limit"); return }
        #expect(full.contains("--max-channels"))
        guard case .refuse(409, let kept) = delete("main", fixture) else { Issue.record("main deleted"); return }
        #expect(kept.contains("default"))
        guard case .refuse(404, let unknown) = delete("nope", fixture) else { Issue.record("no 404"); return }
        #expect(unknown.contains("main, cam"))
    }

    @Test func onlyTheAdminTokenReachesTheChannelRoutes() throws {
        let fixture = try fixture()
        for method in [HTTPRequest.Method.put, .delete] {
            for (arguments, code) in [([:], 401), (["token": "secret"], 403)] as [([String: String], UInt32)] {
                let answer = fixture.core.answer(HTTPRequest(method: method, path: "/api/channels/cam", arguments: arguments))
                #expect(answer.code == code, "\(method) with \(arguments): \(answer.code)")
            }
        }
    }

    @Test func aChannelsSeriesCarryItsNameAndLeaveWithIt() throws {
        let fixture = try fixture()
        defer { fixture.core.channelDesk.stopAll() }
        guard case .answer(201, _) = put("cam", #"{"input": "test:64x48@30"}"#, fixture) else { Issue.record("not added"); return }
        fixture.core.viewerConnected(1, token: "secret", address: "a", channel: "cam")
        let lines = Set(fixture.metrics.exposition().split(separator: "\n").map(String.init))
        #expect(lines.contains(#"filtercast_channel_viewers{channel="cam"} 1"#))
        #expect(lines.contains(#"filtercast_channel_viewers{channel="main"} 0"#))
        #expect(lines.contains(#"filtercast_viewers 1"#), "the transport's series count every channel, unlabelled")
        #expect(lines.contains(#"filtercast_frames_decoded_total 0"#), "the default channel's stages stay unlabelled")
        // The channel runs (its decode thread counts): its series are there, whatever their values.
        for series in [#"filtercast_frames_decoded_total{channel="cam"}"#, #"filtercast_frames_dropped_total{channel="cam",reason="no_viewers"}"#,
                       #"filtercast_filter_seconds_count{channel="cam"}"#] {
            #expect(lines.contains { $0.hasPrefix(series + " ") }, "\(series)")
        }
        #expect(lines.contains(#"filtercast_source_online{channel="cam"} 1"#))
        #expect(lines.contains(#"filtercast_rendition_viewers{channel="cam",rendition="jpeg-48p"} 1"#))

        guard case .answer(200, _) = delete("cam", fixture) else { Issue.record("not removed"); return }
        let after = fixture.metrics.exposition()
        #expect(!after.contains(#"channel="cam""#), "a removed channel's series go with it")
        #expect(after.contains(#"filtercast_frames_decoded_total 0"#))
    }
}
