@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// `PUT /api/luts/NAME` and `GET /api/luts` through the core, as the adapter feeds them: refused
/// before the body by name, size and count; the body parsed and checked; stored, offered in the
/// catalog and pushed to every viewer; refused with the line and the reason; deleted unless a chain uses it.
@Suite struct ServerCoreLUTTests {
    let writes = ServerCoreTests()
    static let identity = Array(LUTFolderTests.identity.utf8)

    private func request(_ length: Int?, name: String = "x") -> HTTPRequest {
        HTTPRequest(method: .put, path: "/api/luts/\(name)", arguments: [:], headers: length.map { [.contentLength: "\($0)"] } ?? [:])
    }

    /// `bytes` sent as LUT `name` on connection `id` in pieces of 3 bytes, parsed on its thread
    /// (joined here, as the wake-up would find it done); the answer.
    private func upload(_ bytes: [UInt8], as name: String, on id: ConnectionID, to core: ServerCore) -> BodyStep? {
        #expect(core.shelfUploadAdmitted(id, into: core.configuration.luts!, name: name, request: request(bytes.count)) == .takeBody(sendContinue: false))
        for start in stride(from: 0, to: bytes.count, by: 3) {
            #expect(bytes[start..<min(start + 3, bytes.count)].withUnsafeBytes { core.bodyPiece(id, $0) } == .receiving)
        }
        #expect(core.bodyComplete(id) == .probing)
        core.bodies.waitForChecks()
        let answers = core.takeBodyAnswers()
        #expect(answers.count == 1 && answers.first?.0 == id && core.bodies[id] == nil)
        return answers.first?.1
    }

    private func code(_ answer: BodyStep?) -> UInt32? {
        switch answer {
        case .answer(let code, _)?: code
        case .refuse(let code, _)?: code
        default: nil
        }
    }

    @Test func aGoodLUTIsStoredOfferedAndPushedToEveryViewer() throws {
        let fixture = try CoreFixture(others: ["cam"], luts: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        core.viewerConnected(2, token: nil, address: "b", channel: "cam")
        _ = writes.drainAll(core)
        #expect(!core.configuration.catalog.names.contains("lut"))
        let answer = upload(Self.identity, as: "kodak-2383", on: 9, to: core)
        guard case .answer(201, let body)? = answer else { Issue.record("\(String(describing: answer))"); return }
        let stored = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        #expect(stored?["name"] as? String == "kodak-2383" && stored?["size"] as? Int == 2)
        let lut = try #require(core.configuration.catalog.descriptor(named: "lut"))
        #expect(lut.params[0].choices?.map(\.id) == ["kodak-2383"])
        let written = writes.drainAll(core)
        for id in [1, 2] {
            #expect(written[id]?.contains { if case .json(let object) = $0 { object["type"] == "catalog" } else { false } } == true, "\(id)")
        }
        let folder = core.configuration.luts!.path
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["kodak-2383.cube"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/kodak-2383.cube")) == Data(Self.identity))
        // The filter takes it at once, by id; the listing shows it.
        writes.send(#"{"type":"setFilter","name":"lut","params":{"lut":"kodak-2383","intensity":0.8},"id":1}"#, from: 1, to: core)
        #expect(writes.drain(1, core).contains(.json(["type": "ack", "id": "1"])))
        let listing = fixture.router.answer(HTTPRequest(method: .get, path: "/api/luts", arguments: [:]))
        guard case .body(200, _, let json) = listing else { Issue.record("\(listing)"); return }
        #expect(String(decoding: json, as: UTF8.self) == #"{"luts":[{"name":"kodak-2383","size":2,"thumbnail":"/api/luts/kodak-2383.jpg","title":""}]}"#)
    }

    @Test func aBadFileIsRefusedWithItsLineAndLeavesNothing() throws {
        let fixture = try CoreFixture(luts: true)
        let answer = upload(Array("LUT_3D_SIZE 2\n0 0 0\n1 0 7\n".utf8), as: "bad", on: 3, to: fixture.core)
        #expect(answer == .refuse(400, "bad.cube: line 3: 7.0 is outside the domain 0.0 to 1.0"))
        #expect(CoreFixture.files(in: fixture.core.configuration.luts!.path).isEmpty)
        #expect(fixture.core.configuration.luts!.library.count == 0 && fixture.core.bodies.all(ShelfUpload.self).isEmpty)
    }

    @Test func refusedBeforeTheBodyByNameSizeAndCount() throws {
        let fixture = try CoreFixture(luts: true)
        let core = fixture.core
        #expect(code(core.shelfUploadAdmitted(1, into: core.configuration.luts!, name: "Bad Name", request: request(10))) == 400)
        #expect(code(core.shelfUploadAdmitted(1, into: core.configuration.luts!, name: "x", request: request(nil))) == 411)
        #expect(code(core.shelfUploadAdmitted(1, into: core.configuration.luts!, name: "x", request: request(0))) == 400)
        #expect(code(core.shelfUploadAdmitted(1, into: core.configuration.luts!, name: "x", request: request(CubeParser.maximumBytes + 1))) == 413)
        #expect(core.shelfUploadAdmitted(1, into: core.configuration.luts!, name: "x", request: request(10)) == .takeBody(sendContinue: false))
        #expect(core.shelfUploadAdmitted(2, into: core.configuration.luts!, name: "y", request: request(10)) == .takeBody(sendContinue: false))
        #expect(code(core.shelfUploadAdmitted(3, into: core.configuration.luts!, name: "z", request: request(10))) == 503, "two at once at most")
        core.bodyClosed(1)
        core.bodyClosed(2)
        #expect(core.bodies.all(ShelfUpload.self).isEmpty)
        #expect(code(upload(Self.identity, as: "x", on: 4, to: core)) == 201)
        // A client that leaves while its LUT is parsed gets no answer, and nothing is kept.
        #expect(core.shelfUploadAdmitted(7, into: core.configuration.luts!, name: "gone", request: request(Self.identity.count)) == .takeBody(sendContinue: false))
        #expect(Self.identity.withUnsafeBytes { core.bodyPiece(7, $0) } == .receiving)
        #expect(core.bodyComplete(7) == .probing)
        core.bodyClosed(7)
        #expect(core.bodies.all(ShelfUpload.self).count == 1, "held until its check ends")
        core.bodies.waitForChecks()
        #expect(core.takeBodyAnswers().isEmpty && !core.configuration.luts!.library.contains("gone"))
        #expect(core.bodies.all(ShelfUpload.self).isEmpty)
        #expect(code(core.shelfUploadAdmitted(5, into: core.configuration.luts!, name: "x", request: request(10))) == 409)
        for index in 1..<LUTLibrary.capacity { try core.configuration.luts!.library.add(.identity(size: 2), as: "l\(index)") }
        #expect(code(core.shelfUploadAdmitted(6, into: core.configuration.luts!, name: "more", request: request(10))) == 507)
    }

    @Test func withoutLutsTheRoutesSaySo() throws {
        let fixture = try CoreFixture()
        #expect(fixture.router.answer(HTTPRequest(method: .get, path: "/api/luts", arguments: [:])).code == 404)
        #expect(fixture.router.answer(request(10)).code == 404)
        #expect(fixture.router.answer(HTTPRequest(method: .delete, path: "/api/luts/x", arguments: [:])).code == 404)
    }

    private func delete(_ name: String, _ fixture: CoreFixture) -> (UInt32, String) {
        switch fixture.router.answer(HTTPRequest(method: .delete, path: "/api/luts/\(name)", arguments: [:])) {
        case .status(let code, let message, _): (code, message)
        case .body(let code, _, let bytes): (code, String(decoding: bytes, as: UTF8.self))
        default: (0, "")
        }
    }

    @Test func aLUTInUseIsKeptNamingWhereAndAnotherIsDeletedEverywhere() throws {
        let fixture = try CoreFixture(others: ["cam"], luts: true)
        let core = fixture.core
        for name in ["warm", "teal"] { #expect(code(upload(Self.identity, as: name, on: 9, to: core)) == 201) }
        core.viewerConnected(1, token: nil, address: "a")
        core.viewerConnected(2, token: nil, address: "b", channel: "cam")
        writes.send(#"{"type":"setFilter","name":"lut","params":{"lut":"teal"}}"#, from: 1, to: core)
        writes.send(#"{"type":"setFilter","name":"lut","params":{"lut":"warm"},"to":"preview"}"#, from: 2, to: core)
        _ = writes.drainAll(core)
        #expect(fixture.session.selection.chain.first.values["lut"] == 1)
        #expect(delete("teal", fixture) == (409, "the LUT 'teal' is in use by channel main's program: choose another LUT there first"))
        #expect(delete("warm", fixture).0 == 409 && delete("warm", fixture).1.contains("channel cam's preview"))
        writes.send(#"{"type":"setFilter","name":"none","to":"preview"}"#, from: 2, to: core)
        _ = writes.drainAll(core)
        #expect(delete("warm", fixture) == (200, #"{"deleted":"warm"}"#))
        #expect(try FileManager.default.contentsOfDirectory(atPath: core.configuration.luts!.path) == ["teal.cube"])
        let written = writes.drainAll(core)
        for id in [1, 2] {
            #expect(written[id]?.contains { if case .json(let object) = $0 { object["type"] == "catalog" } else { false } } == true, "\(id)")
        }
        // The choice after it moved up: the program's chain says so, still by the same id.
        #expect(fixture.session.selection.chain.first.values["lut"] == 0 && fixture.session.selection.chain.first.choices["lut"] == "teal")
        #expect(delete("warm", fixture).0 == 404 && delete("Bad Name", fixture).0 == 400)
        // A name free again takes a new LUT, whose table is its own.
        #expect(code(upload(Self.identity, as: "warm", on: 9, to: core)) == 201)
    }
}
