import CastProtocol
import Foundation
import Testing

/// The compare view on the wire (issue 26.2): `setCompare`, every field checked, and
/// `state.compare`, absent until a controller sets it; the source's renditions in `hello`.
@Suite("Compare view: messages")
struct CompareProtocolTests {
    static let accepted = [
        Accepted(#"{"type":"setCompare","on":true,"mode":"wipe","split":0.5}"#,
                 .session(.setCompare(CompareView.Change(on: true, mode: .wipe, split: 0.5)))),
        Accepted(#"{"type":"setCompare","on":true,"mode":"side-by-side","split":0,"id":4}"#, id: .number(4),
                 .session(.setCompare(CompareView.Change(on: true, mode: .sideBySide, split: 0)))),
        Accepted(#"{"type":"setCompare","on":false}"#, .session(.setCompare(CompareView.Change(on: false)))),
        Accepted(#"{"type":"setCompare","on":true,"split":1,"future":"x"}"#,
                 .session(.setCompare(CompareView.Change(on: true, split: 1)))),
    ]

    static let rejected = [
        Rejected(#"{"type":"setCompare","id":1}"#, .invalidArgument, id: .number(1), mentions: ["setCompare.on", "required"]),
        Rejected(#"{"type":"setCompare","on":"yes"}"#, .invalidArgument, mentions: ["setCompare.on", "true or false"]),
        Rejected(#"{"type":"setCompare","on":true,"mode":"swipe"}"#, .outOfRange,
                 mentions: ["setCompare.mode", "\"wipe\", \"side-by-side\"", "swipe"]),
        Rejected(#"{"type":"setCompare","on":true,"mode":2}"#, .invalidArgument, mentions: ["setCompare.mode"]),
        Rejected(#"{"type":"setCompare","on":true,"mode":null}"#, .invalidArgument, mentions: ["setCompare.mode"]),
        Rejected(#"{"type":"setCompare","on":true,"split":1.01}"#, .outOfRange, mentions: ["setCompare.split", "0…1"]),
        Rejected(#"{"type":"setCompare","on":true,"split":-0.1}"#, .outOfRange, mentions: ["setCompare.split", "0…1"]),
        Rejected(#"{"type":"setCompare","on":true,"split":1e999}"#, .outOfRange, mentions: ["setCompare.split"]),
        Rejected(#"{"type":"setCompare","on":true,"split":"0.5"}"#, .invalidArgument, mentions: ["setCompare.split"]),
    ]

    @Test func everyValueIsCheckedAndTheErrorNamesTheField() throws {
        for example in Self.accepted {
            let message = try ClientMessageParser.parse(example.json)
            #expect(message.id == example.id && message.command == example.command, "\(example)")
        }
        for example in Self.rejected { try example.check() }
    }

    @Test func aChangeKeepsWhatItDoesNotGive() {
        let shown = CompareView.initial.changed(by: CompareView.Change(on: true, mode: .sideBySide, split: 0.25))
        #expect(shown == CompareView(on: true, mode: .sideBySide, split: 0.25))
        #expect(shown.changed(by: CompareView.Change(on: false)) == CompareView(on: false, mode: .sideBySide, split: 0.25))
    }

    @Test func theStateHasCompareOnlyOnceSet() throws {
        var state = try ServerMessageTests.state()
        #expect(try ServerMessageTests.object(.state(state))["compare"] == nil, "a v1 client's state is unchanged")
        state.compare = CompareView(on: true, mode: .sideBySide, split: 0.3)
        let compare = try #require(try ServerMessageTests.object(.state(state))["compare"] as? [String: Any])
        #expect(compare["on"] as? Bool == true && compare["mode"] as? String == "side-by-side" && compare["split"] as? Double == 0.3)
    }

    @Test func theStateHasTheStyleRefreshRateOnlyWhileOneIsMeasured() throws {
        var state = try ServerMessageTests.state()
        #expect(try ServerMessageTests.object(.state(state))["styleRefreshHz"] == nil, "no style link: a v1 client's state is unchanged")
        state.styleRefreshHz = 8.5
        #expect(try ServerMessageTests.object(.state(state))["styleRefreshHz"] as? Double == 8.5)
        state.styleRefreshHz = .nan
        #expect(try ServerMessageTests.object(.state(state))["styleRefreshHz"] == nil, "a rate measured over no time is none")
    }

    @Test func aSourceRenditionSaysSoOnTheWire() throws {
        let rendition = Rendition(id: "source-720p", transport: .jpeg, width: 1280, height: 720, second: .source)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(rendition)) as? [String: Any])
        #expect(object["source"] as? Bool == true && object["preview"] == nil)
        #expect(rendition.second == .source && !rendition.isPreview && !rendition.isProgram)
    }
}
