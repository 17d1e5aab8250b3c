import CastProtocol
import FilterKit
import Foundation
import Testing

/// Studio mode on the wire: `"to"` on the filter commands, `take`, and the `state`'s `program` and
/// `preview` (issue 26.1).
@Suite("Studio mode: messages")
struct StudioProtocolTests {
    static let accepted = [
        Accepted(#"{"type":"setFilter","name":"sepia","to":"preview"}"#,
                 .session(.setFilter(name: "sepia", params: [:], to: .preview))),
        Accepted(#"{"type":"setFilter","name":"sepia","to":"program"}"#, .session(.setFilter(name: "sepia", params: [:]))),
        Accepted(#"{"type":"setFilter","chain":[{"name":"invert"}],"to":"preview","id":3}"#, id: .number(3),
                 .session(.setFilterChain([FilterLinkRequest(name: "invert")], to: .preview))),
        Accepted(#"{"type":"setParams","params":{"intensity":0.5},"index":1,"to":"preview"}"#,
                 .session(.setParams(["intensity": 0.5], index: 1, to: .preview))),
        Accepted(#"{"type":"take"}"#, .session(.take(.cut))),
        Accepted(#"{"type":"take","transition":"cut","id":"t"}"#, id: .string("t"), .session(.take(.cut))),
        Accepted(#"{"type":"take","transition":"fade"}"#, .session(.take(.fade(seconds: 1)))),
        Accepted(#"{"type":"take","transition":"fade","duration":0.1}"#, .session(.take(.fade(seconds: 0.1)))),
        Accepted(#"{"type":"take","transition":"fade","duration":5}"#, .session(.take(.fade(seconds: 5)))),
        Accepted(#"{"type":"take","transition":"fade","duration":2.5,"future":1}"#, .session(.take(.fade(seconds: 2.5)))),
    ]

    static let rejected = [
        Rejected(#"{"type":"setFilter","name":"sepia","to":"air","id":1}"#, .outOfRange, id: .number(1),
                 mentions: ["setFilter.to", "\"program\", \"preview\"", "air"]),
        Rejected(#"{"type":"setFilter","name":"sepia","to":1}"#, .invalidArgument, mentions: ["setFilter.to"]),
        Rejected(#"{"type":"setFilter","name":"sepia","to":null}"#, .invalidArgument, mentions: ["setFilter.to"]),
        Rejected(#"{"type":"setParams","params":{},"to":"Preview"}"#, .outOfRange, mentions: ["setParams.to"]),
        Rejected(#"{"type":"take","transition":"wipe"}"#, .outOfRange, mentions: ["take.transition", "\"cut\", \"fade\""]),
        Rejected(#"{"type":"take","transition":true}"#, .invalidArgument, mentions: ["take.transition"]),
        Rejected(#"{"type":"take","transition":"fade","duration":0.05}"#, .outOfRange, mentions: ["take.duration", "0.1…5"]),
        Rejected(#"{"type":"take","transition":"fade","duration":5.01}"#, .outOfRange, mentions: ["take.duration", "0.1…5"]),
        Rejected(#"{"type":"take","transition":"fade","duration":-1}"#, .outOfRange, mentions: ["take.duration"]),
        Rejected(#"{"type":"take","transition":"fade","duration":1e999}"#, .outOfRange, mentions: ["take.duration"]),
        Rejected(#"{"type":"take","transition":"fade","duration":"1"}"#, .invalidArgument, mentions: ["take.duration"]),
        Rejected(#"{"type":"take","duration":1,"id":"d"}"#, .invalidArgument, id: .string("d"),
                 mentions: ["take.duration", "fade only"]),
    ]

    @Test(arguments: accepted)
    func parses(_ accepted: Accepted) throws {
        let message = try ClientMessageParser.parse(accepted.json)
        #expect(message.id == accepted.id && message.command == accepted.command)
    }

    @Test(arguments: rejected)
    func rejects(_ rejected: Rejected) throws {
        try rejected.check()
    }

    @Test func anUnknownTypeListsTake() throws {
        let error = try #require(rejection(#"{"type":"cut"}"#))
        #expect(error.code == .unknownType && error.message.contains("take"))
    }

    @Test func theStateShowsThePreviewOnlyWhereShown() throws {
        var state = try ServerMessageTests.state()
        state.preview = try FilterChain([try FilterSettings(name: "invert"), try FilterSettings(name: "vignette")])
        let hidden = try ServerMessageTests.object(.state(state))
        #expect(hidden["preview"] == nil)
        #expect((hidden["program"] as? [[String: Any]])?.map { $0["name"] as? String } == ["sepia"])
        #expect((hidden["filter"] as? [String: Any])?["name"] as? String == "sepia")
        state.previewShown = true
        let shown = try ServerMessageTests.object(.state(state))
        #expect((shown["preview"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["invert", "vignette"])
        state.preview = nil
        #expect(try ServerMessageTests.object(.state(state))["preview"] is NSNull)
    }
}
