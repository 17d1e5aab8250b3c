@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// A channel's own token (`"token"` in the channels file): it controls that channel only — its
/// viewers' `hello.access`, `auth`, and the HTTP routes about that channel (`?channel=`) — and
/// elsewhere counts for nothing (the public-view rule). No socket.
@Suite struct ServerCoreChannelTokenTests {
    let io = ServerCoreTests()
    static let token = "s3cret-T0ken", camToken = "cam-0wn-t0ken"

    /// A server with `main` and `cam`, whose own token is `camToken`.
    func fixture(token: String? = Self.token, publicView: Bool = false) throws -> CoreFixture {
        try CoreFixture(token: token, adminToken: "boss", publicView: publicView, others: ["cam"], channelTokens: ["cam": Self.camToken])
    }

    /// The `hello.access` of a viewer of `channel` (nil: the default one) connecting with `token`.
    func access(_ fixture: CoreFixture, _ channel: String?, token: String?) -> String? {
        fixture.core.viewerConnected(99, token: token, address: "a", channel: channel)
        defer { fixture.core.viewerLeft(99) }
        guard case .json(let hello) = io.drain(99, fixture.core).first else { return nil }
        return hello["access"]
    }

    @Test func helloGivesControlOnItsChannelOnly() throws {
        let locked = try fixture(), visible = try fixture(publicView: true), open = try fixture(token: nil)
        #expect(access(locked, "cam", token: Self.camToken) == "control")
        #expect(access(locked, nil, token: Self.camToken) == "none" && access(visible, nil, token: Self.camToken) == "watch",
                "elsewhere the public-view rule")
        #expect(access(locked, "cam", token: nil) == "none" && access(visible, "cam", token: nil) == "watch")
        #expect(access(locked, "cam", token: Self.token) == "control" && access(locked, "cam", token: "boss") == "admin",
                "the server's tokens still count there")
        // Without --token anybody controls, but not a channel with a token of its own: there it watches.
        #expect(access(open, nil, token: nil) == "control" && access(open, "cam", token: nil) == "watch")
        #expect(access(open, "cam", token: Self.camToken) == "control")
    }

    @Test func authWithTheChannelsTokenRaisesItsViewersOnly() throws {
        let fixture = try fixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a", channel: "cam")
        core.viewerConnected(2, token: nil, address: "b")
        _ = io.drainAll(core)
        io.send(#"{"type": "auth", "token": "\#(Self.camToken)", "id": 1}"#, from: 2, to: core)
        #expect(io.types(io.drain(2, core)) == ["error"] && core.viewers[2]?.session.access == ViewerAccess.none,
                "another channel's token is no token here")
        io.send(#"{"type": "auth", "token": "\#(Self.camToken)", "id": 2}"#, from: 1, to: core)
        #expect(io.types(io.drain(1, core)) == ["ack", "state"] && core.viewers[1]?.session.access == .control)
        io.send(#"{"type": "setFilter", "name": "sepia", "id": 3}"#, from: 1, to: core)
        #expect(io.types(io.drain(1, core)).first == "ack")
        let cam = try #require(core.channels.channel(named: "cam"))
        #expect(cam.session.selection.chain.first.name == "sepia" && fixture.session.selection.chain.first.name != "sepia")
    }

    func code(_ fixture: CoreFixture, _ method: HTTPRequest.Method, _ path: String, channel: String?, token: String?) -> UInt32 {
        var arguments: [String: String] = [:]
        arguments["channel"] = channel
        let request = HTTPRequest(method: method, path: path, arguments: arguments,
                                  headers: token.map { [.authorization: "Bearer \($0)"] } ?? [:])
        return fixture.router.answer(request).code
    }

    @Test func httpRoutesAboutTheChannelTakeItsTokenOthersDoNot() throws {
        let fixture = try CoreFixture(uploads: true, token: Self.token, adminToken: "boss", others: ["cam"], luts: true, channelTokens: ["cam": Self.camToken])
        defer { withExtendedLifetime(fixture) {} }
        for path in ["/api/state", "/api/recordings", "/snapshot.jpg"] {
            #expect(code(fixture, .get, path, channel: "cam", token: Self.camToken) == 200, "\(path)?channel=cam")
            #expect(code(fixture, .get, path, channel: nil, token: Self.camToken) == 401, "\(path) of main")
            #expect(code(fixture, .get, path, channel: "cam", token: nil) == 401)
        }
        let upload = code(fixture, .put, "/api/uploads/a.mp4", channel: "cam", token: Self.camToken)
        #expect(upload != 401 && upload != 403, "its token controls the channel: \(upload)")
        #expect(code(fixture, .put, "/api/uploads/a.mp4", channel: "main", token: Self.camToken) == 401)
        let shared: [(HTTPRequest.Method, String)] = [(.get, "/metrics"), (.get, "/api/channels"), (.put, "/api/luts/a.cube"),
                                                      (.delete, "/api/luts/a"), (.put, "/api/styles/a"), (.delete, "/api/styles/a")]
        for (method, path) in shared {
            #expect(code(fixture, method, path, channel: "cam", token: Self.camToken) == 401, "\(path) is the server's, not the channel's")
        }
        #expect(code(fixture, .put, "/api/channels/x", channel: "cam", token: Self.camToken) == 401)
    }

    /// The reply (`ack` or `error`) to `json` from viewer `id`.
    func answer(_ json: String, from id: ConnectionID, _ core: ServerCore) -> [String: String] {
        io.send(json, from: id, to: core)
        for case .json(let object) in io.drain(id, core) where object["type"] == "ack" || object["type"] == "error" { return object }
        return [:]
    }

    @Test func looksAreTheServersAChannelsTokenCannotSaveOrDeleteThem() throws {
        let fixture = try CoreFixture(token: Self.token, adminToken: "boss", others: ["cam"], looks: true, channelTokens: ["cam": Self.camToken])
        let core = fixture.core, folder = fixture.base + "/looks"
        core.viewerConnected(1, token: Self.camToken, address: "a", channel: "cam")
        core.viewerConnected(2, token: Self.token, address: "b", channel: "cam")
        core.viewerConnected(3, token: "boss", address: "c", channel: "cam")
        _ = io.drainAll(core)
        #expect(answer(#"{"type":"setFilter","name":"sepia","id":1}"#, from: 1, core)["type"] == "ack", "it controls its channel")
        let refused = answer(#"{"type":"saveLook","name":"mine","id":2}"#, from: 1, core)
        #expect(refused["code"] == "unauthorized" && refused["message"]?.contains("saveLook changes what every channel shares") == true,
                "\(refused)")
        #expect(CoreFixture.files(in: folder).isEmpty, "nothing saved")
        #expect(answer(#"{"type":"saveLook","name":"kept","id":3}"#, from: 2, core)["type"] == "ack", "--token controls the server")
        let deleting = answer(#"{"type":"deleteLook","name":"kept","id":4}"#, from: 1, core)
        #expect(deleting["code"] == "unauthorized" && deleting["message"]?.hasPrefix("deleteLook") == true, "\(deleting)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["kept.json"], "nothing deleted")
        #expect(answer(#"{"type":"setFilter","look":"kept","id":5}"#, from: 1, core)["type"] == "ack", "applying one is its channel's")
        #expect(answer(#"{"type":"auth","token":"\#(Self.token)","id":6}"#, from: 1, core)["type"] == "ack")
        #expect(answer(#"{"type":"deleteLook","name":"kept","id":7}"#, from: 1, core)["type"] == "ack", "after auth with --token")
        #expect(answer(#"{"type":"saveLook","name":"boss","id":8}"#, from: 3, core)["type"] == "ack", "the admin token")
    }
}
