@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// Comments through the core, as the adapter drives it: who may change which, what everyone is
/// told, the file they are kept in, the limit per source, `state.showing`, the exports.
extension ServerCoreTests {
    private static let add = ##"{"type":"comment","action":"add","frame":12,"text":"warmer","id":"a","drawing":[{"kind":"rect","points":[[0.1,0.1],[0.4,0.5]],"color":"#ff0000","width":0.01}]}"##

    /// Ana (1), Bob (2) and the admin Cy (3) on `main`, their hellos read.
    private func room(_ fixture: CoreFixture) {
        fixture.core.viewerConnected(1, token: nil, address: "a", personName: "Ana")
        fixture.core.viewerConnected(2, token: nil, address: "b", personName: "Bob")
        fixture.core.viewerConnected(3, token: "boss", address: "c", personName: "Cy")
        _ = messages(fixture.core)
    }

    private func error(_ written: [[String: Any]]?) -> String? { ofType("error", written).first?["code"] as? String }

    @Test func anyoneAddsButOnlyTheAuthorOrTheAdminChanges() throws {
        let fixture = try CoreFixture(adminToken: "boss", comments: true)
        let core = fixture.core
        room(fixture)
        send(##"{"type":"setFilter","name":"sepia"}"##, from: 1, to: core)
        send(Self.add, from: 1, to: core)
        var written = messages(core)
        let added = try #require(ofType("comments", written[2]).first?["changed"] as? [String: Any], "Bob is told")
        let id = try #require(added["id"] as? String)
        #expect((added["author"] as? [String: String])?["name"] == "Ana" && added["frame"] as? Int == 12)
        #expect((added["chain"] as? [[String: Any]])?.first?["name"] as? String == "sepia", "the chain in force then")
        #expect(added["at"] as? String != nil)
        for action in [#""action":"edit","text":"mine now""#, #""action":"resolve""#, #""action":"delete""#] {
            send(##"{"type":"comment",\##(action),"comment":"\##(id)"}"##, from: 2, to: core)
            #expect(error(messages(core)[2]) == "unauthorized", "Bob may not \(action)")
        }
        send(##"{"type":"comment","action":"edit","comment":"\##(id)","text":"warmer still"}"##, from: 1, to: core)
        written = messages(core)
        #expect((ofType("comments", written[2]).first?["changed"] as? [String: Any])?["text"] as? String == "warmer still")
        send(##"{"type":"comment","action":"resolve","comment":"\##(id)"}"##, from: 3, to: core)
        #expect((ofType("comments", messages(core)[1]).first?["changed"] as? [String: Any])?["resolved"] as? Bool == true, "the admin may")
        send(##"{"type":"comment","action":"delete","comment":"\##(id)"}"##, from: 3, to: core)
        #expect(ofType("comments", messages(core)[2]).first?["deleted"] as? String == id)
        send(##"{"type":"comment","action":"delete","comment":"\##(id)"}"##, from: 1, to: core)
        #expect(error(messages(core)[1]) == "not_found")
        #expect(core.comments(of: fixture.main).comments.isEmpty)
    }

    @Test func theCommentsAreKeptInTheirSourcesFileAndANewcomerGetsThem() throws {
        let fixture = try CoreFixture(adminToken: "boss", comments: true)
        let core = fixture.core
        room(fixture)
        #expect(CoreFixture.files(in: fixture.base + "/comments").isEmpty, "made when first written")
        send(Self.add, from: 1, to: core)
        let source = core.commentSource(of: fixture.main)
        let file = fixture.base + "/comments/" + source.key + ".json"
        let kept = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        #expect((kept?["comments"] as? [[String: Any]])?.first?["text"] as? String == "warmer")
        #expect(CommentFolder(path: fixture.base + "/comments").comments(of: source.key).map(\.text) == ["warmer"], "read back as written")
        core.viewerConnected(4, token: nil, address: "d")
        let list = try #require(ofType("comments", messages(core)[4]).first)
        #expect((list["comments"] as? [[String: Any]])?.count == 1 && list["source"] as? String == source.name)
    }

    @Test func everyChangeOfTheCommentsIsInTheActivity() throws {
        let fixture = try CoreFixture(adminToken: "boss", comments: true)
        let core = fixture.core
        room(fixture)
        send(Self.add, from: 1, to: core)  // frame 12 of 30 a second: 0:00.4
        let id = try #require(core.comments(of: fixture.main).comments.first?.id)
        let changes = [(1, #""action":"edit","text":"warmer still\nand brighter""#), (2, #""action":"resolve""#), (1, #""action":"resolve""#),
                       (1, #""action":"resolve","resolved":false"#), (2, #""action":"show""#), (3, #""action":"delete""#)]
        for (sender, action) in changes { send(##"{"type":"comment",\##(action),"comment":"\##(id)"}"##, from: sender, to: core) }
        send(##"{"type":"comment","action":"add","position":2,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"#00ff00","width":0.01}]}"##,
             from: 2, to: core)
        let activity = ofType("activity", messages(core)[2])
        #expect(activity.map { $0["summary"] as? String } == [
            "Ana commented at 0:00.4: “warmer”", "Ana edited the comment at 0:00.4: “warmer still…”",
            "Ana resolved the comment at 0:00.4", "Ana reopened the comment at 0:00.4", "Bob showed the comment at 0:00.4",
            "Cy deleted the comment at 0:00.4", "Bob commented at 0:02.0 with a drawing",
        ], "Bob's refused resolve is not there")
        #expect(activity.allSatisfy { $0["what"] as? String == "comment" })
        #expect(core.state(of: fixture.main).changedBy?.name == "Bob")
    }

    @Test func aSourceKeepsAThousandCommentsAndTheRefusalSaysSo() throws {
        let fixture = try CoreFixture(comments: true)
        let core = fixture.core
        room(fixture)
        let source = core.commentSource(of: fixture.main)
        let one = CastProtocol.Comment(id: "c0", author: Author(id: "p9", name: "Zoe"), at: "2026-12-05T09:00:00.000Z", frame: 0, position: 0,
                          duration: nil, text: "x", drawing: [], chain: [])
        let full = (0..<CommentLimits.maximumPerSource).map { index in
            var comment = one
            comment.id = "c\(index)"
            return comment
        }
        #expect(core.commentFolder?.store(full, of: source.key, source: source.name) == nil)
        send(Self.add, from: 1, to: core)
        let refusal = try #require(ofType("error", messages(core)[1]).first)
        #expect(refusal["code"] as? String == "too_large")
        #expect((refusal["message"] as? String)?.contains("1000") == true, "\(refusal)")
    }

    @Test func showingACommentPausesEveryoneThereUntilThePlayheadMoves() throws {
        let fixture = try CoreFixture(comments: true)
        let core = fixture.core
        room(fixture)
        send(Self.add, from: 1, to: core)
        let id = try #require(core.comments(of: fixture.main).comments.first?.id)
        send(##"{"type":"comment","action":"show","comment":"\##(id)"}"##, from: 2, to: core)
        #expect(ofType("state", messages(core)[1]).last?["showing"] as? String == id)
        send(##"{"type":"play"}"##, from: 1, to: core)
        #expect(ofType("state", messages(core)[2]).last?["showing"] is NSNull, "played: no longer shown")
    }

    @Test func theExportsListEveryComment() throws {
        let fixture = try CoreFixture(comments: true)
        let core = fixture.core
        room(fixture)
        send(Self.add, from: 1, to: core)
        send(##"{"type":"comment","action":"add","position":2,"duration":1,"text":"a, \"quoted\"\nnote | here"}"##, from: 2, to: core)
        let csv = try #require(body(core.answer(HTTPRequest(method: .get, path: "/api/comments", arguments: ["format": "csv"]))))
        let lines = csv.components(separatedBy: "\r\n")
        #expect(lines.first == "id,author,at,frame,position,timecode,duration,resolved,text,shapes,chain")
        #expect(lines[1].contains(",Ana,") && lines[1].contains(",12,") && lines[1].contains(",warmer,1,"))
        #expect(csv.contains("\"a, \"\"quoted\"\"\nnote | here\""), "quoted as RFC 4180 asks")
        let edl = try #require(body(core.answer(HTTPRequest(method: .get, path: "/api/comments", arguments: ["format": "edl"]))))
        #expect(edl.hasPrefix("TITLE: ") && edl.contains("FCM: NON-DROP FRAME"))
        #expect(edl.contains("001  001      V     C        00:00:00:12 00:00:00:13 00:00:00:12 00:00:00:13"), "\(edl)")
        #expect(edl.contains(" |C:ResolveColorBlue |M:Ana: warmer |D:1"))
        #expect(edl.contains(" |C:ResolveColorBlue |M:Bob: a, \"quoted\" |D:30"), "\(edl)")
        #expect(core.answer(HTTPRequest(method: .get, path: "/api/comments", arguments: ["format": "xml"])).code == 400)
    }

    private func body(_ answer: HTTPAnswer) -> String? {
        guard case .body(200, _, let bytes) = answer else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
