@testable import CastServer
import Foundation
import Testing

/// Uploads through the core, as the adapter feeds them: admitted or refused before the body,
/// the body in pieces, a real probe (FFmpeg) on its own thread, the answer, a client that leaves.
@Suite struct ServerCoreUploadTests {
    /// A request to upload `length` bytes (nil: no Content-Length).
    func request(_ length: Int?) -> HTTPRequest {
        HTTPRequest(method: .put, path: "/api/uploads/x", arguments: [:],
                    headers: length.map { [.contentLength: "\($0)"] } ?? [:])
    }

    /// `bytes` uploaded to `name` on connection `id`, in pieces of 4 KB; the step after the body.
    func upload(_ bytes: [UInt8], as name: String, on id: ConnectionID, to core: ServerCore) -> BodyStep {
        #expect(core.uploadAdmitted(id, name: name, request: request(bytes.count)) == .takeBody(sendContinue: false))
        for start in stride(from: 0, to: bytes.count, by: 4096) {
            let step = bytes[start..<min(start + 4096, bytes.count)].withUnsafeBytes { core.bodyPiece(id, $0) }
            #expect(step == .receiving)
        }
        return core.bodyComplete(id)
    }

    /// Waits for every probe under way to finish (joins its thread), then takes the answers.
    func answers(_ core: ServerCore) -> [(ConnectionID, BodyStep)] {
        core.bodies.waitForChecks()
        return core.takeBodyAnswers()
    }

    /// Files left in the uploads folder, hidden ones included.
    func filesLeft(_ fixture: CoreFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.library.uploads!.folder.root).sorted()
    }

    @Test func aVideoIsProbedStoredAndAnswered201() throws {
        let fixture = try CoreFixture(uploads: true)
        let base = try SessionSourceTests.folder()
        defer { try? FileManager.default.removeItem(at: base) }
        let clip = try [UInt8](Data(contentsOf: base.appendingPathComponent("recordings/clip.mp4")))
        #expect(upload(clip, as: "clip.mp4", on: 1, to: fixture.core) == .probing)
        let answered = answers(fixture.core)
        guard answered.count == 1, case .answer(201, let body) = answered[0].1 else { Issue.record("\(answered)"); return }
        #expect(answered[0].0 == 1)
        let stored = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]
        #expect(stored?["source"] as? String == "uploads/clip.mp4" && stored?["width"] as? Int == 160)
        #expect(try filesLeft(fixture) == ["clip.mp4"])
        #expect(fixture.counters.uploads.counters[.accepted]?.value == 1)
    }

    @Test func somethingElseIsRefused415AndLeavesNothing() throws {
        let fixture = try CoreFixture(uploads: true)
        #expect(upload([UInt8](repeating: 0x42, count: 10_000), as: "x.mp4", on: 1, to: fixture.core) == .probing)
        let answered = answers(fixture.core)
        guard answered.count == 1, case .refuse(415, let message) = answered[0].1 else { Issue.record("\(answered)"); return }
        #expect(message.contains("'x.mp4'") && !message.contains(".upload-"), "named as the client named it: \(message)")
        #expect(try filesLeft(fixture).isEmpty)
    }

    @Test func uploadsAreRefusedBeforeTheirBodyByName() throws {
        let core = try CoreFixture(uploads: true).core
        func refusal(_ step: BodyStep) -> UInt32? { if case .refuse(let code, _) = step { code } else { nil } }
        #expect(refusal(core.uploadAdmitted(1, name: "a.mp4", request: request(nil))) == 411)
        #expect(refusal(core.uploadAdmitted(1, name: "a.mp4", request: request(2_000_000))) == 413)
        #expect(refusal(core.uploadAdmitted(1, name: "../a.mp4", request: request(10))) == 400)
        #expect(core.uploadAdmitted(1, name: "a.mp4", request: request(10)) == .takeBody(sendContinue: false))
        #expect(core.uploadAdmitted(2, name: "b.mp4", request: request(10)) == .takeBody(sendContinue: false))
        #expect(refusal(core.uploadAdmitted(3, name: "c.mp4", request: request(10))) == 503, "two at once at most")
        let waiting = HTTPRequest(method: .put, path: "/", arguments: [:], headers: [.contentLength: "10", .expect: "100-continue"])
        core.bodyClosed(2)
        #expect(core.uploadAdmitted(4, name: "d.mp4", request: waiting) == .takeBody(sendContinue: true))
        #expect(core.counters.uploads.counters[.refused]?.value == 4)
    }

    @Test func aBodyCutShortOrLongerThanAnnouncedLeavesNothing() throws {
        let fixture = try CoreFixture(uploads: true)
        let core = fixture.core
        #expect(core.uploadAdmitted(1, name: "a.mp4", request: request(100)) == .takeBody(sendContinue: false))
        _ = [UInt8](repeating: 1, count: 50).withUnsafeBytes { core.bodyPiece(1, $0) }
        core.bodyClosed(1)
        #expect(core.uploadAdmitted(2, name: "b.mp4", request: request(10)) == .takeBody(sendContinue: false))
        let over = [UInt8](repeating: 1, count: 11).withUnsafeBytes { core.bodyPiece(2, $0) }
        #expect(over == .refuse(400, "the body is longer than its Content-Length"))
        #expect(core.bodies[2] == nil && core.bodyPiece(2, UnsafeRawBufferPointer(start: nil, count: 0)) == .receiving, "no longer taken")
        #expect(try filesLeft(fixture).isEmpty)
        #expect(core.counters.uploads.counters[.cutShort]?.value == 1 && core.counters.uploads.counters[.failed]?.value == 1)
    }

    @Test func aClientThatLeavesWhileItsUploadIsProbedGetsNoAnswer() throws {
        let fixture = try CoreFixture(uploads: true)
        #expect(upload([UInt8](repeating: 0x42, count: 1000), as: "x.mp4", on: 1, to: fixture.core) == .probing)
        fixture.core.bodyClosed(1)
        #expect(answers(fixture.core).isEmpty)
        #expect(try filesLeft(fixture).isEmpty)
        #expect(fixture.counters.uploads.counters[.abandoned]?.value == 1)
    }
}
