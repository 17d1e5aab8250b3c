import CastProtocol
import Foundation
import Testing

/// The review room's messages (v1 additions): `name`, `present`, `point` in; `pointer`,
/// `activity` and the state's `people`, `presenter`, `changedBy` out.
@Suite struct RoomProtocolTests {
    private func command(_ json: String) throws(ProtocolError) -> ClientCommand { try ClientMessageParser.parse(json).command }

    private func refusal(_ json: String) -> ProtocolError? {
        do throws(ProtocolError) {
            _ = try command(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func aNameIsTrimmedAndChecked() throws {
        #expect(try command(#"{"type":"name","name":"  Ana María "}"#) == .connection(.name("Ana María")))
        #expect(try command(#"{"type":"name","name":"\#(String(repeating: "é", count: 40))"}"#)
            == .connection(.name(String(repeating: "é", count: 40))))
        for bad in [#""   ""#, #""\#(String(repeating: "a", count: 41))""#, #""An\u0007a""#, #""Ana\nBob""#, "12", "null"] {
            let error = refusal(#"{"type":"name","name":\#(bad),"id":1}"#)
            #expect(error?.code == .invalidArgument, "\(bad)")
            #expect(error?.message.contains("name.name") == true, "\(bad): \(error?.message ?? "")")
            #expect(error?.id == .number(1))
        }
    }

    @Test func presentTakesOrReleasesAndForceIsABoolean() throws {
        #expect(try command(#"{"type":"present","action":"take"}"#) == .session(.present(take: true, force: false)))
        #expect(try command(#"{"type":"present","action":"take","force":true}"#) == .session(.present(take: true, force: true)))
        #expect(try command(#"{"type":"present","action":"release"}"#) == .session(.present(take: false, force: false)))
        #expect(refusal(#"{"type":"present","action":"grab"}"#)?.code == .outOfRange)
        #expect(refusal(#"{"type":"present"}"#)?.code == .invalidArgument)
        #expect(refusal(#"{"type":"present","action":"take","force":"yes"}"#)?.code == .invalidArgument)
    }

    @Test func aPointIsOnThePictureOrHidden() throws {
        #expect(try command(#"{"type":"point","x":0.25,"y":1}"#) == .session(.point(PointerPosition(x: 0.25, y: 1))))
        #expect(try command(#"{"type":"point","x":null,"y":null}"#) == .session(.point(nil)))
        #expect(try command(#"{"type":"point"}"#) == .session(.point(nil)))
        #expect(refusal(#"{"type":"point","x":1.01,"y":0}"#)?.code == .outOfRange)
        #expect(refusal(#"{"type":"point","x":-0.1,"y":0}"#)?.code == .outOfRange)
        #expect(refusal(#"{"type":"point","x":0.5}"#)?.message.contains("point.y") == true)
        #expect(refusal(#"{"type":"point","x":"0.5","y":0}"#)?.code == .invalidArgument)
    }

    @Test func notPresenterIsAnErrorCodeWithATitle() {
        #expect(ErrorCode(rawValue: "not_presenter") == .notPresenter)
        #expect(!ErrorCode.notPresenter.title.isEmpty)
    }

    private func object(_ message: ServerMessage) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(message.encoded())) as? [String: Any])
    }

    @Test func pointerAndActivityMessagesCarryWhoItWas() throws {
        let ana = Author(id: "p1", name: "Ana")
        let pointer = try object(.pointer(by: ana, at: PointerPosition(x: 0.5, y: 0.25)))
        #expect(pointer["type"] as? String == "pointer" && pointer["x"] as? Double == 0.5 && pointer["y"] as? Double == 0.25)
        #expect((pointer["by"] as? [String: String]) == ["id": "p1", "name": "Ana"])
        let hidden = try object(.pointer(by: ana, at: nil))
        #expect(hidden["x"] is NSNull && hidden["y"] is NSNull)
        let entry = ActivityEntry(id: 3, at: ActivityEntry.timestamp(Date(timeIntervalSince1970: 0)), position: 1.5, frame: 45,
                                  by: ana, what: "setFilter", summary: "Ana switched the look to sepia")
        let activity = try object(.activity(entry))
        #expect(activity["type"] as? String == "activity" && activity["at"] as? String == "1970-01-01T00:00:00.000Z")
        #expect(activity["frame"] as? Int == 45 && activity["what"] as? String == "setFilter" && activity["id"] as? Int == 3)
    }

    @Test func theStateNamesPeopleAndThePresenterOnlyWhereThereIsARoom() throws {
        var state = SessionState(source: SourceState(kind: .test, name: "test", seekable: false, width: 64, height: 48, fps: 30, reference: nil), playing: true, position: 0,
                                 duration: nil, filter: .none, viewers: 1, fps: 30)
        var object = try self.object(.state(state))
        #expect(object["people"] == nil && object["presenter"] == nil && object["changedBy"] == nil, "a v1 state is unchanged")
        state.people = [PersonEntry(id: "p1", name: "Guest 1", access: .control, presenter: false)]
        object = try self.object(.state(state))
        #expect(object["presenter"] is NSNull)
        #expect((object["people"] as? [[String: Any]])?.first?["access"] as? String == "control")
        state.presenter = Author(id: "p1", name: "Guest 1")
        state.changedBy = Author(id: "p1", name: "Guest 1")
        object = try self.object(.state(state))
        #expect((object["presenter"] as? [String: String])?["name"] == "Guest 1")
        #expect((object["changedBy"] as? [String: String])?["id"] == "p1")
    }
}
