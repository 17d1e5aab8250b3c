import CastProtocol
import Foundation
import Testing

/// The `comment` command (v1 addition): every field checked, a bad one `invalid_argument` naming
/// it; and the `comments` message and `state.showing` out.
@Suite struct CommentProtocolTests {
    private func comment(_ json: String) throws(ProtocolError) -> CommentCommand {
        guard case .session(.comment(let command)) = try ClientMessageParser.parse(json).command else {
            throw ProtocolError(code: .unknownType, message: "not a comment")
        }
        return command
    }

    private func refusal(_ json: String) -> ProtocolError? {
        do throws(ProtocolError) {
            _ = try comment(json)
            return nil
        } catch {
            return error
        }
    }

    private static let arrow = ##"{"kind":"arrow","points":[[0.1,0.2],[0.5,0.6]],"color":"#FF0000","width":0.01}"##

    @Test func anAddIsPinnedToAFrameOrAPositionWithTextAndADrawing() throws {
        let added = try comment(##"{"type":"comment","action":"add","frame":42,"text":"  warmer  ","drawing":[\##(Self.arrow)]}"##)
        let shape = CommentShape(kind: .arrow, points: [[0.1, 0.2], [0.5, 0.6]], color: "#ff0000", width: 0.01)
        #expect(added == .add(place: .frame(42), duration: nil, text: "warmer", drawing: [shape]))
        #expect(try comment(##"{"type":"comment","action":"add","position":1.5,"duration":2,"text":"a range"}"##)
            == .add(place: .position(1.5), duration: 2, text: "a range", drawing: []))
        let freehand = ##"{"kind":"freehand","points":[[0,0],[0.5,0.5],[1,1]],"color":"#00ff00","width":0.05}"##
        #expect(try comment(##"{"type":"comment","action":"add","frame":0,"drawing":[\##(freehand)]}"##)
            == .add(place: .frame(0), duration: nil, text: "", drawing: [CommentShape(kind: .freehand, points: [[0, 0], [0.5, 0.5], [1, 1]],
                                                                                      color: "#00ff00", width: 0.05)]))
    }

    @Test func editResolveDeleteAndShowNameAComment() throws {
        #expect(try comment(##"{"type":"comment","action":"edit","comment":"c1x","text":"new"}"##) == .edit(id: "c1x", text: "new", drawing: nil))
        #expect(try comment(##"{"type":"comment","action":"edit","comment":"c1x","drawing":[]}"##) == .edit(id: "c1x", text: nil, drawing: []))
        #expect(try comment(##"{"type":"comment","action":"resolve","comment":"c1x"}"##) == .resolve(id: "c1x", resolved: true))
        #expect(try comment(##"{"type":"comment","action":"resolve","comment":"c1x","resolved":false}"##) == .resolve(id: "c1x", resolved: false))
        #expect(try comment(##"{"type":"comment","action":"delete","comment":"c1x"}"##) == .delete(id: "c1x"))
        #expect(try comment(##"{"type":"comment","action":"show","comment":"c1x"}"##) == .show(id: "c1x"))
    }

    /// Each bad message, and the field its refusal must name.
    static let refused: [(json: String, field: String)] = [
        (##"{"type":"comment","action":"pin","frame":1,"text":"a"}"##, "comment.action"),
        (##"{"type":"comment","action":"add","text":"a"}"##, "comment.frame"),
        (##"{"type":"comment","action":"add","frame":1,"position":1,"text":"a"}"##, "comment.position"),
        (##"{"type":"comment","action":"add","frame":-1,"text":"a"}"##, "comment.frame"),
        (##"{"type":"comment","action":"add","frame":1.5,"text":"a"}"##, "comment.frame"),
        (##"{"type":"comment","action":"add","position":"1","text":"a"}"##, "comment.position"),
        (##"{"type":"comment","action":"add","frame":1,"duration":0,"text":"a"}"##, "comment.duration"),
        (##"{"type":"comment","action":"add","frame":1,"duration":-2,"text":"a"}"##, "comment.duration"),
        (##"{"type":"comment","action":"add","frame":1}"##, "comment.text"),
        (##"{"type":"comment","action":"add","frame":1,"text":7}"##, "comment.text"),
        (##"{"type":"comment","action":"add","frame":1,"text":"a\u0007b"}"##, "comment.text"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":{}}"##, "comment.drawing"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"star","points":[[0,0],[1,1]],"color":"#000000","width":0.01}]}"##,
         "comment.drawing[0].kind"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0]],"color":"#000000","width":0.01}]}"##,
         "comment.drawing[0].points"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"rect","points":[[0,0],[1,1],[1,0]],"color":"#000000","width":0.01}]}"##,
         "comment.drawing[0].points"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1.2,1]],"color":"#000000","width":0.01}]}"##,
         "comment.drawing[0].points[1]"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1]],"color":"#000000","width":0.01}]}"##,
         "comment.drawing[0].points[1]"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"red","width":0.01}]}"##,
         "comment.drawing[0].color"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"#00000g","width":0.01}]}"##,
         "comment.drawing[0].color"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"#000000","width":0.001}]}"##,
         "comment.drawing[0].width"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"#000000","width":0.06}]}"##,
         "comment.drawing[0].width"),
        (##"{"type":"comment","action":"add","frame":1,"drawing":[{"kind":"line","points":[[0,0],[1,1]],"color":"#000000"}]}"##,
         "comment.drawing[0].width"),
        (##"{"type":"comment","action":"edit","comment":"c1"}"##, "comment.text"),
        (##"{"type":"comment","action":"edit","text":"a"}"##, "comment.comment"),
        (##"{"type":"comment","action":"delete","comment":"../x"}"##, "comment.comment"),
        (##"{"type":"comment","action":"delete","comment":""}"##, "comment.comment"),
        (##"{"type":"comment","action":"resolve","comment":"c1","resolved":"yes"}"##, "comment.resolved"),
    ]

    @Test(arguments: refused.indices)
    func aBadValueIsRefusedNamingItsField(index: Int) {
        let (json, field) = Self.refused[index]
        let error = refusal(json)
        #expect(error?.code == (field == "comment.action" ? .outOfRange : .invalidArgument), "\(json): \(error?.message ?? "taken")")
        #expect(error?.message.contains(field + " ") == true, "\(json): \(error?.message ?? "taken")")
    }

    @Test func theLimitsAreTwoThousandCharactersAHundredShapesFiveThousandPoints() throws {
        let longest = String(repeating: "é", count: CommentLimits.maximumText)
        #expect(try comment(##"{"type":"comment","action":"add","frame":1,"text":"\##(longest)"}"##) != nil)
        #expect(refusal(##"{"type":"comment","action":"add","frame":1,"text":"\##(longest)a"}"##)?.message.contains("2000 characters") == true)
        let line = ##"{"kind":"line","points":[[0,0],[1,1]],"color":"#000000","width":0.01}"##
        let shapes = { (count: Int) in ##"{"type":"comment","action":"add","frame":1,"drawing":["## + Array(repeating: line, count: count).joined(separator: ",") + "]}" }
        #expect(try comment(shapes(100)) != nil)
        #expect(refusal(shapes(101))?.message.contains("at most 100 shapes") == true)
        let freehand = { (points: Int) in
            ##"{"kind":"freehand","points":["## + Array(repeating: "[0,1]", count: points).joined(separator: ",") + ##"],"color":"#000000","width":0.01}"##
        }
        let drawing = { (parts: [Int]) in ##"{"type":"comment","action":"add","frame":1,"drawing":["## + parts.map(freehand).joined(separator: ",") + "]}" }
        #expect(try comment(drawing([2_500, 2_500])) != nil)
        #expect(refusal(drawing([2_500, 2_501]))?.message.contains("at most 5000 points") == true)
    }

    /// FuzzComments' seeds (Tests/Fuzz/corpus/comments) and any input it crashed on: seeds 1–7 are
    /// comments taken, seed 8 is refused naming a field.
    @Test(arguments: FuzzInputs.files(of: "comments"))
    func theFuzzersInputsAreTakenOrRefusedByName(input: URL) throws {
        let bytes = try Data(contentsOf: input)
        let name = input.deletingPathExtension().lastPathComponent
        do {
            let message = try bytes.withUnsafeBytes { try ClientMessageParser.parse($0) }
            guard case .session(.comment) = message.command else { throw ProtocolError(code: .unknownType, message: "not a comment") }
            #expect(name != "seed8", "seed8 is a bad comment")
        } catch let error as ProtocolError {
            #expect(!name.hasPrefix("seed") || name == "seed8", "\(name): \(error.message)")
            #expect(error.message.contains("comment."))
        }
    }

    @Test func commentsAndShowingEncodeAsPromised() throws {
        let note = CastProtocol.Comment(id: "c1", author: Author(id: "p1", name: "Ana"), at: "2026-12-05T09:00:00.000Z", frame: 30, position: 1.2,
                           duration: nil, text: "here", drawing: [CommentShape(kind: .line, points: [[0, 0], [1, 1]], color: "#ffffff", width: 0.01)],
                           chain: [FilterLinkRequest(name: "sepia", params: ["intensity": 0.5]), FilterLinkRequest(name: "lut", params: ["lut": "warm"])])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(ServerMessage.comments(source: "a.mp4", [note]).encoded())) as? [String: Any])
        #expect(list["type"] as? String == "comments" && list["source"] as? String == "a.mp4")
        let first = try #require((list["comments"] as? [[String: Any]])?.first)
        #expect(first["frame"] as? Int == 30 && (first["author"] as? [String: String])?["name"] == "Ana" && first["resolved"] as? Bool == false)
        #expect(((first["chain"] as? [[String: Any]])?.last?["params"] as? [String: String])?["lut"] == "warm")
        #expect(try JSONDecoder().decode(CastProtocol.Comment.self, from: JSONEncoder().encode(note)) == note, "the comments file reads back")
        let deleted = try #require(try JSONSerialization.jsonObject(
            with: Data(ServerMessage.commentChanged(source: "a.mp4", comment: nil, deleted: "c1").encoded())) as? [String: Any])
        #expect(deleted["deleted"] as? String == "c1" && deleted["changed"] == nil)
    }
}
