@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// Who may do what, through the core: `--token` with and without `--public-view`, the token in
/// the URL, `auth`, bearer tokens on HTTP routes, origins and `--max-clients`. No socket.
@Suite struct ServerCoreAccessTests {
    let io = ServerCoreTests()
    static let token = "s3cret-T0ken"
    static let sessionCommands = [
        #"{"type": "setFilter", "name": "sepia"}"#, #"{"type": "setParams", "params": {}}"#, #"{"type": "pause"}"#,
        #"{"type": "play"}"#, #"{"type": "seek", "position": 1.0}"#,
        // A browser's bitstream goes to FFmpeg's decoders: only a client that may control sends one.
        #"{"type": "share", "action": "start", "codec": "h264", "width": 320, "height": 240}"#,
    ]

    /// The `hello.access` a client connecting with `token` gets.
    func access(_ fixture: CoreFixture, token: String?) -> String? {
        fixture.core.viewerConnected(99, token: token, address: "a")
        defer { fixture.core.viewerLeft(99) }
        guard case .json(let hello) = io.drain(99, fixture.core).first else { return nil }
        return hello["access"]
    }

    @Test func helloTellsEachClientItsAccess() throws {
        let open = try CoreFixture(), locked = try CoreFixture(token: Self.token),
            visible = try CoreFixture(token: Self.token, publicView: true)
        #expect(access(open, token: nil) == "control")
        #expect(access(locked, token: nil) == "none" && access(locked, token: "wrong") == "none")
        #expect(access(locked, token: Self.token) == "control")
        #expect(access(visible, token: nil) == "watch" && access(visible, token: Self.token) == "control")
    }

    @Test func helloSaysAdminForTheAdminToken() throws {
        let open = try CoreFixture(adminToken: "boss"), locked = try CoreFixture(token: Self.token, adminToken: "boss"),
            visible = try CoreFixture(token: Self.token, adminToken: "boss", publicView: true)
        #expect(access(open, token: nil) == "control" && access(open, token: "boss") == "admin")
        #expect(access(locked, token: nil) == "none" && access(locked, token: Self.token) == "control")
        #expect(access(locked, token: "boss") == "admin" && access(visible, token: "boss") == "admin")
        #expect(access(visible, token: nil) == "watch" && access(visible, token: "wrong") == "watch")
    }

    @Test func authWithTheAdminTokenRaisesAControllerToAdminAndTheAdminControls() throws {
        let fixture = try CoreFixture(token: Self.token, adminToken: "boss")
        let core = fixture.core
        core.viewerConnected(1, token: Self.token, address: "a")
        core.viewerConnected(2, token: "boss", address: "b")
        _ = io.drainAll(core)
        io.send(#"{"type": "auth", "token": "nope", "id": 1}"#, from: 1, to: core)
        #expect(io.types(io.drain(1, core)) == ["error"] && core.viewers[1]?.session.access == .control, "a wrong token lowers nothing")
        io.send(#"{"type": "auth", "token": "boss", "id": 2}"#, from: 1, to: core)
        let raised = io.drain(1, core)
        #expect(io.types(raised) == ["ack", "state"] && core.viewers[1]?.session.access == .admin)
        guard case .json(let ack) = raised.first else { Issue.record("no ack"); return }
        #expect(ack["access"] == "admin", "the ack of auth says what the client may do now")
        io.send(#"{"type": "auth", "token": "\#(Self.token)", "id": 3}"#, from: 1, to: core)
        guard case .json(let kept) = io.drain(1, core).first else { Issue.record("no ack"); return }
        #expect(core.viewers[1]?.session.access == .admin && kept["access"] == "admin", "the control token does not take admin away")
        io.send(#"{"type": "setFilter", "name": "sepia", "id": 4}"#, from: 2, to: core)
        #expect(io.types(io.drain(2, core)).first == "ack" && fixture.session.selection.chain.first.name == "sepia")
    }

    @Test func withoutTheTokenEverySessionCommandIsRefusedAndNothingChanges() throws {
        let fixture = try CoreFixture(token: Self.token)
        let core = fixture.core
        core.viewerConnected(1, token: "nope", address: "a")
        _ = io.drain(1, core)
        for (index, command) in (Self.sessionCommands + [#"{"type": "auth", "token": "wrong"}"#]).enumerated() {
            io.send(String(command.dropLast()) + #", "id": \#(index)}"#, from: 1, to: core)
            let answer = io.drain(1, core)
            #expect(answer.count == 1, "one answer: \(answer)")
            guard case .json(let refusal) = answer.first else { continue }
            #expect(refusal["code"] == "unauthorized" && refusal["id"] == "\(index)", "\(command)")
        }
        #expect(fixture.session.selection.chain == .none && fixture.session.playback.isPlaying && fixture.session.sharer == nil)
        fixture.publishFrame()
        core.woken(queuedBytes: { _ in 0 })
        #expect(io.drain(1, core).isEmpty, "without --public-view an unauthenticated client gets nothing but hello")
    }

    @Test func theTokenInTheURLAuthorizes() throws {
        let fixture = try CoreFixture(token: Self.token)
        let core = fixture.core
        core.viewerConnected(1, token: Self.token, address: "a")
        _ = io.drain(1, core)
        io.send(#"{"type": "setFilter", "name": "sepia", "id": 1}"#, from: 1, to: core)
        #expect(io.types(io.drain(1, core)) == ["ack", "activity", "state"])
        fixture.publishFrame()
        core.woken(queuedBytes: { _ in 0 })
        #expect(io.types(io.drain(1, core)) == ["FCF1"])
    }

    @Test func authBringsTheCurrentStateAtOnce() throws {
        let fixture = try CoreFixture(token: Self.token)
        let core = fixture.core
        core.viewerConnected(1, token: Self.token, address: "owner")
        io.send(#"{"type": "pause"}"#, from: 1, to: core)
        core.viewerConnected(2, token: nil, address: "a")
        _ = io.drainAll(core)
        io.send(#"{"type": "auth", "token": "\#(Self.token)", "id": 5}"#, from: 2, to: core)
        let written = io.drain(2, core)
        #expect(io.types(written) == ["ack", "state"])
        guard case .json(let state) = written.last else { return }
        #expect(state["playing"] == "0" && state["viewers"] == "2")
    }

    @Test func aPublicViewerWatchesButEveryCommandNeedsTheToken() throws {
        let fixture = try CoreFixture(token: Self.token, publicView: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = io.drain(1, core)
        #expect(fixture.outputs.jpeg[0]!.audience.load(ordering: .relaxed) == 1)
        io.send(#"{"type": "flow", "window": 3, "id": 1}"#, from: 1, to: core)
        #expect(io.types(io.drain(1, core)) == ["ack"], "flow control needs no token")
        for command in Self.sessionCommands {
            io.send(command, from: 1, to: core)
            #expect(io.types(io.drain(1, core)) == ["error"], "\(command)")
        }
        fixture.publishFrame()
        core.woken(queuedBytes: { _ in 0 })
        #expect(io.types(io.drain(1, core)) == ["FCF1"])
    }

    static let protectedPaths = ["/metrics", "/api/state", "/api/recordings", "/snapshot.jpg"]

    @Test(arguments: ["Bearer", "bearer"])
    func aBearerTokenOpensTheProtectedRoutes(scheme: String) throws {
        let fixture = try CoreFixture(token: Self.token)
        defer { withExtendedLifetime(fixture) {} }
        for path in Self.protectedPaths {
            let request = HTTPRequest(method: .get, path: path, arguments: [:], headers: [.authorization: "\(scheme) \(Self.token)"])
            #expect(fixture.router.answer(request).code == 200, "\(path)")
            #expect(fixture.router.answer(HTTPRequest(method: .get, path: path, arguments: [:])).code == 401, "\(path)")
        }
    }

    @Test(arguments: ["Bearer \(token.dropLast())", "Bearer \(token)x", "Bearer ", "Basic \(token)", token])
    func aWrongBearerTokenIs401WithAChallenge(authorization: String) throws {
        let fixture = try CoreFixture(token: Self.token)
        defer { withExtendedLifetime(fixture) {} }
        for path in Self.protectedPaths {
            let answer = fixture.router.answer(HTTPRequest(method: .get, path: path, arguments: [:],
                                                           headers: [.authorization: authorization]))
            guard case .status(401, let message, let headers) = answer else { Issue.record("\(path): \(answer)"); continue }
            #expect(headers.contains { $0.0 == "www-authenticate:" && $0.1.hasPrefix("Bearer") })
            #expect(message.contains("Authorization: Bearer"))
        }
    }

    @Test func onlyTheOwnOriginAndAllowedOnesMayUpgrade() throws {
        let core = try CoreFixture(allowedOrigins: ["http://ok.example"]).core
        let host = "127.0.0.1:8080"
        func admitted(_ origin: String?) -> Bool {
            let headers: [HTTPRequest.Header: String] = origin.map { [.origin: $0, .host: host] } ?? [.host: host]
            return core.admit(HTTPRequest(method: .get, path: "/ws", arguments: [:], headers: headers)) == nil
        }
        for origin in ["http://evil.example", "https://evil.example", "http://\(host).evil.example", "http://evil.example/\(host)",
                       "http://127.0.0.1:8081", "null"] {
            #expect(!admitted(origin), "\(origin)")
        }
        #expect(admitted("http://\(host)") && admitted(nil) && admitted("http://ok.example"))
    }

    @Test func aChannelsViewerLimitRefusesTheNextOfThatChannelOnly() throws {
        let fixture = try CoreFixture(maxClients: 10, others: ["cam"], maxChannelViewers: 2)
        let core = fixture.core
        let cam = try #require(core.channels.channel(named: "cam"))
        let toCam = HTTPRequest(method: .get, path: "/ws", arguments: ["channel": "cam"])
        core.viewerConnected(1, token: nil, address: "a", channel: "cam")
        #expect(core.admit(toCam) == nil)
        core.watcherJoined(2, .mjpeg(rendition: 0), of: cam)
        guard case .status(503, let message, _) = core.admit(toCam) else { Issue.record("\(String(describing: core.admit(toCam)))"); return }
        #expect(message == "too many clients on channel cam", "MJPEG readers count, and the refusal names the channel")
        #expect(core.router.answer(HTTPRequest(method: .get, path: "/stream.mjpg", arguments: ["channel": "cam"])).code == 503)
        #expect(core.admit(HTTPRequest(method: .get, path: "/ws", arguments: [:])) == nil, "main has its own places")
        core.viewerConnected(3, token: nil, address: "b")
        core.viewerConnected(4, token: nil, address: "c")
        #expect(core.admit(HTTPRequest(method: .get, path: "/ws", arguments: ["channel": "main"]))?.code == 503)
        core.viewerLeft(1)
        #expect(core.admit(toCam) == nil, "a place freed on the channel is taken again")
    }

    @Test func aPlaceFreedUnderTheClientLimitIsTakenAgain() throws {
        let core = try CoreFixture(maxClients: 2).core
        let request = HTTPRequest(method: .get, path: "/ws", arguments: [:])
        core.viewerConnected(1, token: nil, address: "a")
        core.watcherJoined(2, .mjpeg(rendition: 0), of: core.channels.defaultChannel)
        #expect(core.admit(request)?.code == 503, "MJPEG readers count against --max-clients")
        #expect(core.router.answer(HTTPRequest(method: .get, path: "/stream.mjpg", arguments: [:])).code == 503)
        core.watcherLeft(2)
        #expect(core.admit(request) == nil)
    }
}
