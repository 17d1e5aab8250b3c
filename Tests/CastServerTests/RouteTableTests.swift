@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Telemetry
import Testing

/// The route table: every route's access level stated here, checked by the router before any
/// handler runs, for requests with each level of credentials. No socket: requests are values.
@Suite struct RouteTableTests {
    /// Every route of the table and the access it needs. A route added to the table and not here
    /// (or here with another level) fails `everyRouteDeclaresTheLevelListedHere`.
    static let expectedLevels: [String: AccessLevel] = [
        "GET /api/state": .watch, "GET /api/activity": .watch, "GET /api/comments": .watch, "GET /api/filters": .anyone, "GET /snapshot.jpg": .watch,
        "GET /stream.mjpg": .watch, "GET /api/recordings": .watch, "GET /api/media": .watch,
        "GET /api/uploads": .watch, "GET /recordings/*": .watch, "GET /api/recordings/*": .watch,
        "PUT /api/uploads/*": .control, "GET /api/luts": .watch, "GET /api/luts/*": .anyone, "GET /api/looks": .watch, "GET /api/looks/*": .watch, "GET /api/thumbnails": .watch, "GET /api/thumbnails/*": .watch, "PUT /api/luts/*": .control, "DELETE /api/luts/*": .control, "GET /api/styles": .watch, "GET /api/styles/*": .anyone,
        "PUT /api/styles/*": .control, "DELETE /api/styles/*": .control, "GET /api/backgrounds": .watch,
        "GET /api/backgrounds/*": .anyone, "PUT /api/backgrounds/*": .control, "DELETE /api/backgrounds/*": .control, "GET /api/channels": .watch,
        "PUT /api/channels/*": .admin, "DELETE /api/channels/*": .admin, "GET /healthz": .anyone, "GET /metrics": .watch, "GET /ws": .anyone,
        "GET /*": .anyone,
    ]

    /// The routes about one channel (`?channel=`), where that channel's own token counts; every
    /// other route is the server's.
    static let channelRoutes: Set<String> = [
        "GET /api/state", "GET /api/activity", "GET /api/comments", "GET /snapshot.jpg", "GET /stream.mjpg", "GET /api/recordings", "GET /recordings/*",
        "GET /api/recordings/*", "PUT /api/uploads/*", "GET /api/thumbnails", "GET /api/thumbnails/*",
    ]

    @Test func theRoutesAboutAChannelAreTheOnesListedHere() throws {
        let fixture = try CoreFixture(uploads: true, luts: true)
        let listed = fixture.routes.filter { $0.scope == .channel }.map { route in
            "\(route.methods.contains(.get) ? "GET" : route.methods.contains(.put) ? "PUT" : "DELETE") \(route.path)"
        }
        #expect(Set(listed) == Self.channelRoutes && listed.count == Self.channelRoutes.count)
    }

    /// A request to `route`'s path (a prefix route's with a name after it) with credentials of
    /// `level` on a server with `--token secret` and `--admin-token boss` (and `--public-view` for watch).
    static func request(_ route: Route, presenting level: AccessLevel) -> HTTPRequest {
        let path = switch route.path {
        case .exact(let path): path
        case .prefix(let prefix): prefix + "a.mp4"
        }
        let method: HTTPRequest.Method = route.methods.contains(.get) ? .get : route.methods.first!
        let token = [AccessLevel.control: "secret", .admin: "boss"][level]
        return HTTPRequest(method: method, path: path, arguments: token.map { ["token": $0] } ?? [:])
    }

    @Test func everyRouteDeclaresTheLevelListedHere() throws {
        let fixture = try CoreFixture(uploads: true, luts: true)
        var listed: [String: AccessLevel] = [:]
        for route in fixture.routes {
            let method = route.methods.contains(.get) ? "GET" : route.methods.contains(.put) ? "PUT" : "DELETE"
            listed["\(method) \(route.path)"] = route.access
        }
        #expect(listed == Self.expectedLevels)
    }

    @Test(arguments: [false, true])
    func noHandlerRunsForARequestBelowItsRoutesLevel(publicView: Bool) throws {
        let fixture = try CoreFixture(uploads: true, luts: true)
        defer { withExtendedLifetime(fixture) {} }
        let router = Router(routes: fixture.routes, access: AccessPolicy(token: AccessToken("secret"), adminToken: AccessToken("boss"),
                                                                         publicView: publicView),
                            allowedOrigins: [])
        for route in fixture.routes {
            for level in AccessLevel.allCases {
                let granted: AccessLevel = level >= .control ? level : publicView ? .watch : .anyone
                let answer = router.answer(Self.request(route, presenting: level))
                if granted < route.access {
                    // A token that grants too little is 403; none (or a wrong one) is 401.
                    #expect(answer.code == (level >= .control ? 403 : 401), "\(route.path) answered \(answer.code) to \(level) credentials")
                } else {
                    #expect(answer.code != 401, "\(route.path) refused \(level) credentials")
                }
            }
        }
    }

    /// A route that needs admin, on servers with and without `--admin-token` (and `--token`).
    @Test(arguments: [nil, "secret"] as [String?])
    func anAdminRouteIs401WithoutCredentials403WithTooLittleAndOpenToTheAdminToken(token: String?) {
        let route = Route(methods: [.put], path: .exact("/admin"), access: .admin, refusesForeignOrigins: true) { _, _ in
            .status(204, "done")
        }
        let router = Router(routes: [route], access: AccessPolicy(token: AccessToken(token), adminToken: AccessToken("boss"),
                                                                  publicView: false), allowedOrigins: [])
        func code(_ arguments: [String: String], _ headers: [HTTPRequest.Header: String] = [:]) -> UInt32 {
            router.answer(HTTPRequest(method: .put, path: "/admin", arguments: arguments, headers: headers)).code
        }
        #expect(code([:]) == 401 && code(["token": "wrong"]) == 401, "no credentials, or none of this server's")
        #expect(code(["token": "secret"]) == (token == nil ? 401 : 403), "the control token is not enough")
        #expect(code(["token": "boss"]) == 204 && code([:], [.authorization: "Bearer boss"]) == 204)
        let noAdmin = Router(routes: [route], access: AccessPolicy(token: AccessToken(token), publicView: false), allowedOrigins: [])
        for arguments in [[:], ["token": "secret"], ["token": "boss"]] {
            let answer = noAdmin.answer(HTTPRequest(method: .put, path: "/admin", arguments: arguments))
            guard case .status(403, let message, _) = answer else { Issue.record("\(answer)"); continue }
            #expect(message.contains("--admin-token"), "nobody is admin without --admin-token")
        }
    }

    @Test func theAdminTokenGrantsEverythingTheTokenDoes() throws {
        let fixture = try CoreFixture(uploads: true, luts: true)
        defer { withExtendedLifetime(fixture) {} }
        let router = Router(routes: fixture.routes, access: AccessPolicy(token: AccessToken("secret"), adminToken: AccessToken("boss"),
                                                                         publicView: false), allowedOrigins: [])
        for route in fixture.routes where route.access <= .control {
            let answer = router.answer(Self.request(route, presenting: .admin))
            #expect(answer.code != 401 && answer.code != 403, "\(route.path) refused the admin token: \(answer.code)")
        }
    }

    @Test func theBearerTokenGrantsControlLikeTheQuery() throws {
        let fixture = try CoreFixture(uploads: true)
        defer { withExtendedLifetime(fixture) {} }
        let router = Router(routes: fixture.routes, access: AccessPolicy(token: AccessToken("secret"), publicView: false),
                            allowedOrigins: [])
        let bearer = HTTPRequest(method: .get, path: "/api/state", arguments: [:], headers: [.authorization: "Bearer secret"])
        let wrong = HTTPRequest(method: .get, path: "/api/state", arguments: [:], headers: [.authorization: "Bearer nope"])
        #expect(router.answer(bearer).code == 200)
        #expect(router.answer(wrong).code == 401)
    }

    @Test func methodsAndPathsOutsideTheTableAreRefusedByName() throws {
        let fixture = try CoreFixture(uploads: false)
        let router = fixture.router
        defer { withExtendedLifetime(fixture) {} }
        let delete = router.answer(HTTPRequest(method: .other, path: "/api/state", arguments: [:]))
        let put = router.answer(HTTPRequest(method: .put, path: "/api/state", arguments: [:]))
        let noUploads = router.answer(HTTPRequest(method: .put, path: "/api/uploads/a.mp4", arguments: [:]))
        let missing = router.answer(HTTPRequest(method: .get, path: "/nope.html", arguments: [:]))
        #expect(delete.code == 405 && put.code == 405 && missing.code == 404)
        guard case .status(404, let message, _) = noUploads else { Issue.record("\(noUploads)"); return }
        #expect(message.contains("--uploads"))
    }

    @Test func aForeignPageCannotUploadEvenWithTheToken() throws {
        let fixture = try CoreFixture(uploads: true)
        let headers: [HTTPRequest.Header: String] = [.origin: "http://evil.example", .host: "127.0.0.1:8080"]
        let foreign = HTTPRequest(method: .put, path: "/api/uploads/a.mp4", arguments: ["token": "secret"], headers: headers)
        let own = HTTPRequest(method: .put, path: "/api/uploads/a%20b.mp4", arguments: [:],
                              headers: [.origin: "http://127.0.0.1:8080", .host: "127.0.0.1:8080", .contentLength: "10"])
        #expect(fixture.router.answer(foreign).code == 403)
        guard case .pending(let pending) = fixture.router.answer(own) else { Issue.record("not admitted"); return }
        #expect(fixture.core.start(pending, on: 1, own) == .takeBody(sendContinue: false))
        #expect((fixture.core.bodies[1] as? UploadReceiver)?.name == "a b.mp4", "the name is percent-decoded")
    }

    @Test func recordingsAreNamedByThePathAndResolvedInTheLibrary() throws {
        let fixture = try CoreFixture(uploads: false)
        let recordings = fixture.library.recordings.root
        try fixture.library.recordings.create()
        _ = FileManager.default.createFile(atPath: recordings + "/a b.mp4", contents: Data([0]))
        for path in ["/recordings/a%20b.mp4", "/api/recordings/a%20b.mp4"] {
            guard case .file(let file, let type, _) = fixture.router.answer(HTTPRequest(method: .get, path: path, arguments: [:])) else {
                Issue.record("\(path) is not the file"); continue
            }
            #expect(file == recordings + "/a b.mp4" && type == "video/mp4")
        }
        #expect(fixture.router.answer(HTTPRequest(method: .get, path: "/recordings/missing.mp4", arguments: [:])).code == 404)
        #expect(fixture.router.answer(HTTPRequest(method: .get, path: "/recordings/..%2F..%2Fetc", arguments: [:])).code == 403)
    }

    @Test func mjpegReadersGetTheRungNearestTheirWidth() throws {
        let fixture = try CoreFixture(uploads: false)
        let router = fixture.router
        defer { withExtendedLifetime(fixture) {} }
        func answer(_ width: String) -> HTTPAnswer {
            router.answer(HTTPRequest(method: .get, path: "/stream.mjpg", arguments: ["width": width]))
        }
        guard case .mjpeg(_, let full) = answer("64"), case .mjpeg(_, let half) = answer("30") else { Issue.record("no stream"); return }
        #expect(full == 0 && half == 1)
        #expect(answer("0").code == 400 && answer("wide").code == 400)
    }
}
