@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// Two channels in one core, driven as lws would drive it: each viewer on its channel
/// (`?channel=`), its commands, frames, state and recordings never another channel's; the
/// HTTP routes' `?channel=`, `GET /api/channels`, and the 404 of a channel that is not there.
@Suite struct ServerCoreChannelTests {
    let io = ServerCoreTests()

    /// `main` with viewer 1, `cam` with viewer 2, their hellos written.
    func twoChannels() throws -> (fixture: CoreFixture, cam: Channel) {
        let fixture = try CoreFixture(others: ["cam"])
        fixture.core.viewerConnected(1, token: nil, address: "a")
        fixture.core.viewerConnected(2, token: nil, address: "b", channel: "cam")
        _ = io.drainAll(fixture.core)
        return (fixture, fixture.channels[1])
    }

    func get(_ path: String, _ arguments: [String: String] = [:], _ fixture: CoreFixture) -> HTTPAnswer {
        fixture.core.answer(HTTPRequest(method: .get, path: path, arguments: arguments))
    }

    @Test func helloNamesTheChannelAndAViewerWithoutOneIsOnTheDefault() throws {
        let fixture = try CoreFixture(others: ["cam"])
        fixture.core.viewerConnected(1, token: nil, address: "a")
        fixture.core.viewerConnected(2, token: nil, address: "b", channel: "cam")
        let written = io.drainAll(fixture.core)
        guard case .json(let main) = written[1]?.first, case .json(let cam) = written[2]?.first else {
            Issue.record("no hellos: \(written)"); return
        }
        #expect(main["type"] == "hello" && main["channel"] == "main")
        #expect(cam["type"] == "hello" && cam["channel"] == "cam")
        #expect(fixture.core.state(of: fixture.main).viewers == 1 && fixture.core.state(of: fixture.channels[1]).viewers == 1)
    }

    @Test func aChannelsCommandsAndStateStayInIt() throws {
        let (fixture, cam) = try twoChannels()
        io.send(#"{"type": "setFilter", "name": "sepia", "id": 7}"#, from: 2, to: fixture.core)
        let written = io.drainAll(fixture.core)
        #expect(io.types(written[2] ?? []) == ["ack", "activity", "state"])
        #expect(written[1] == nil, "the other channel's viewer hears nothing: \(written[1] ?? [])")
        #expect(cam.session.selection.chain.first.name == "sepia")
        #expect(fixture.session.selection.chain == .none)
        fixture.core.viewerConnected(3, token: nil, address: "c", channel: "cam")
        let joined = io.drainAll(fixture.core)
        #expect(io.types(joined[2] ?? []) == ["state"] && joined[1] == nil, "a newcomer is news on its channel only")
        #expect(fixture.core.state(of: cam).viewers == 2 && fixture.core.state(of: fixture.main).viewers == 1)
    }

    @Test func framesGoToTheViewersOfTheirChannel() throws {
        let (fixture, cam) = try twoChannels()
        fixture.publishFrame(in: cam)
        fixture.core.woken(queuedBytes: { _ in 0 })
        let written = io.drainAll(fixture.core)
        #expect(io.types(written[2] ?? []) == ["FCF1"])
        #expect(written[1] == nil, "\(written[1] ?? [])")
        #expect(fixture.outputs.jpeg[0]!.audience.load(ordering: .relaxed) == 1
                && cam.outputs.jpeg[0]!.audience.load(ordering: .relaxed) == 1, "each channel counts its own audience")
    }

    @Test func aSharedCameraIsTheSourceOfItsChannelOnly() throws {
        let (fixture, cam) = try twoChannels()
        io.send(ServerCoreSharingTests.start, from: 2, to: fixture.core)
        let written = io.drainAll(fixture.core)
        #expect(io.types(written[2] ?? []) == ["ack", "activity", "state"] && written[1] == nil)
        #expect(fixture.core.state(of: cam).source.kind == .browser && cam.session.sharer == 2)
        #expect(fixture.core.state(of: fixture.main).source.kind == .test && fixture.session.sharer == nil)
        fixture.core.viewerLeft(2)
        #expect(fixture.core.state(of: cam).source.kind == .test, "what the channel played before comes back")
    }

    @Test func httpWatchersCountInTheirChannelsAudience() throws {
        let (fixture, cam) = try twoChannels()
        fixture.core.watcherJoined(5, .mjpeg(rendition: 1), of: cam)
        #expect(cam.outputs.jpeg[1]!.audience.load(ordering: .relaxed) == 1)
        #expect(fixture.outputs.jpeg[1]!.audience.load(ordering: .relaxed) == 0)
        fixture.core.watcherLeft(5)
        #expect(cam.outputs.jpeg[1]!.audience.load(ordering: .relaxed) == 0)
    }

    @Test func aRecordingThatStoppedIsToldOnItsChannelOnly() throws {
        let (fixture, _) = try twoChannels()
        fixture.wake.recordingEnded("the disk is full", channel: try ChannelName("cam"))
        fixture.core.woken(queuedBytes: { _ in 0 })
        let written = io.drainAll(fixture.core)
        #expect(io.types(written[2] ?? []) == ["error", "state"] && written[1] == nil)
    }

    @Test func theRoutesServeTheChannelTheQueryNames() throws {
        let (fixture, cam) = try twoChannels()
        io.send(#"{"type": "setFilter", "name": "invert"}"#, from: 2, to: fixture.core)
        guard case .body(200, _, let state) = get("/api/state", ["channel": "cam"], fixture),
              case .body(200, _, let mainState) = get("/api/state", [:], fixture) else { Issue.record("no state"); return }
        #expect(String(decoding: state, as: UTF8.self).contains(#""filter":{"name":"invert""#))
        #expect(String(decoding: mainState, as: UTF8.self).contains(#""filter":{"name":"none""#))
        guard case .snapshot(let snapshot, 0) = get("/snapshot.jpg", ["channel": "cam"], fixture),
              case .mjpeg(let reader, 1) = get("/stream.mjpg", ["channel": "cam", "width": "32"], fixture) else {
            Issue.record("no pictures"); return
        }
        #expect(snapshot === cam && reader === cam)
        guard case .snapshot(let thumbnail, 1) = get("/snapshot.jpg", ["channel": "cam", "width": "30"], fixture) else {
            Issue.record("?width= takes the nearest rendition"); return
        }
        #expect(thumbnail === cam)
        #expect(get("/snapshot.jpg", ["width": "0"], fixture).code == 400)
        let camFolder = cam.session.library!.recordings.root
        try cam.session.library!.recordings.create()
        _ = FileManager.default.createFile(atPath: camFolder + "/take.mp4", contents: Data([0]))
        guard case .file(let path, _, _) = get("/recordings/take.mp4", ["channel": "cam"], fixture) else { Issue.record("no file"); return }
        #expect(path == camFolder + "/take.mp4")
        #expect(get("/recordings/take.mp4", [:], fixture).code == 404, "the default channel has recordings of its own")
        #expect(camFolder == fixture.library.recordings.root + "/cam", "a named channel records under RECORDINGS/NAME")
    }

    @Test func aChannelThatIsNotThereIs404NamingThoseThatAre() throws {
        let fixture = try CoreFixture(uploads: true, others: ["cam"])
        for path in ["/api/state", "/snapshot.jpg", "/stream.mjpg", "/api/recordings", "/recordings/a.mp4"] {
            for name in ["nope", "Bad Name!", ""] {
                guard case .status(404, let message, _) = get(path, ["channel": name], fixture) else {
                    Issue.record("\(path)?channel=\(name) was not refused"); continue
                }
                #expect(message.contains("main, cam"), "\(message)")
            }
        }
        let upload = { (name: String) in HTTPRequest(method: .put, path: "/api/uploads/a.mp4", arguments: ["channel": name]) }
        #expect(fixture.core.answer(upload("nope")).code == 404)
        guard case .pending = fixture.core.answer(upload("cam")) else { Issue.record("the upload was refused"); return }
        let upgrade = { (name: String) in HTTPRequest(method: .get, path: "/ws", arguments: ["channel": name]) }
        #expect(fixture.core.admit(upgrade("nope"))?.code == 404)
        #expect(fixture.core.admit(upgrade("cam")) == nil && fixture.core.admit(upgrade("main")) == nil)
    }

    @Test func apiChannelsListsEveryChannelDefaultFirst() throws {
        let (fixture, _) = try twoChannels()
        io.send(#"{"type": "setFilter", "name": "sepia"}"#, from: 2, to: fixture.core)
        fixture.core.viewerConnected(3, token: nil, address: "c", channel: "cam")
        guard case .body(200, "application/json", let body) = get("/api/channels", [:], fixture),
              let list = try JSONSerialization.jsonObject(with: Data(body)) as? [[String: Any]] else {
            Issue.record("no list"); return
        }
        #expect(list.map { $0["name"] as? String } == ["main", "cam"])
        #expect(list.map { $0["viewers"] as? Int } == [1, 2])
        #expect(list.map { $0["snapshot"] as? String } == ["/snapshot.jpg?channel=main", "/snapshot.jpg?channel=cam"])
        #expect(list.map { ($0["filter"] as? [[String: Any]])?.map { $0["name"] as? String } } == [[], ["sepia"]])
        #expect(list.allSatisfy { ($0["source"] as? [String: Any])?["kind"] as? String == "test" && $0["online"] as? Bool == true })
        #expect(list.allSatisfy { $0["idle"] as? Bool == false })
        #expect(Set(list[0].keys) == ["name", "source", "online", "idle", "paused", "viewers", "filter", "snapshot"])
    }
}
