import CastProtocol
import FilterKit
import Testing

/// A message that must parse, and what it must parse to.
struct Accepted: Sendable, CustomStringConvertible {
    let json: String
    let id: MessageID?
    let command: ClientCommand

    init(_ json: String, id: MessageID? = nil, _ command: ClientCommand) {
        self.json = json
        self.id = id
        self.command = command
    }

    var description: String { json }

    static let cases = [
        Accepted(#"{"type":"setFilter","name":"sepia","params":{"intensity":0.5}}"#,
                 .setFilter(name: "sepia", params: ["intensity": 0.5])),
        Accepted(#"{"type":"setFilter","name":"comic","params":{"levels":4,"edgeThreshold":0.3},"id":"f1"}"#,
                 id: .string("f1"), .setFilter(name: "comic", params: ["levels": 4, "edgeThreshold": 0.3])),
        Accepted(#"{"type":"setFilter","name":"none"}"#, .setFilter(name: "none", params: [:])),
        Accepted(#"{"type":"setFilter","name":"sepia","params":{}}"#, .setFilter(name: "sepia", params: [:])),
        Accepted(#"{"type":"setParams","params":{"scale":12},"id":7}"#, id: .number(7), .setParams(["scale": 12], index: nil)),
        // A choice's id is a string; which parameters take one is the catalog's to check.
        Accepted(#"{"type":"setParams","params":{"style":"style-3","strength":0.5}}"#,
                 .setParams(["style": .choice("style-3"), "strength": 0.5], index: nil)),
        Accepted(#"{"type":"setFilter","name":"style","params":{"style":"style-2"}}"#,
                 .setFilter(name: "style", params: ["style": "style-2"])),
        Accepted(#"{"type":"setFilter","chain":[{"name":"style","params":{"style":""}},{"name":"vignette"}]}"#,
                 .setFilterChain([FilterLinkRequest(name: "style", params: ["style": ""]), FilterLinkRequest(name: "vignette")])),
        Accepted(#"{"type":"setParams","params":{}}"#, .setParams([:], index: nil)),
        Accepted(#"{"type":"setParams","params":{"intensity":0.5},"index":0}"#, .setParams(["intensity": 0.5], index: 0)),
        Accepted(#"{"type":"setParams","params":{"scale":3},"index":7}"#, .setParams(["scale": 3], index: 7)),
        Accepted(#"{"type":"setParams","params":{},"index":2.0}"#, .setParams([:], index: 2)),
        // A chain: each link a name and optional params, in order; duplicates are allowed.
        Accepted(#"{"type":"setFilter","chain":[{"name":"invert"},{"name":"sepia","params":{"intensity":0.5}}],"id":"c"}"#,
                 id: .string("c"), .setFilterChain([FilterLinkRequest(name: "invert"),
                                                    FilterLinkRequest(name: "sepia", params: ["intensity": 0.5])])),
        Accepted(#"{"type":"setFilter","chain":[{"name":"none"}]}"#, .setFilterChain([FilterLinkRequest(name: "none")])),
        Accepted(#"{"type":"setFilter","chain":[{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"b","params":{}}]}"#,
                 .setFilterChain(Array(repeating: FilterLinkRequest(name: "a"), count: 7) + [FilterLinkRequest(name: "b")])),
        Accepted(#"{"type":"setFilter","chain":[{"name":"sepia","future":1}],"extra":true}"#,
                 .setFilterChain([FilterLinkRequest(name: "sepia")])),
        Accepted(#"{"type":"play"}"#, .play),
        Accepted(#"{"type":"play","id":"a"}"#, id: .string("a"), .play),
        Accepted(#"{"type":"pause","id":-2.5}"#, id: .number(-2.5), .pause),
        Accepted(#"{"type":"pause"}"#, .pause),
        Accepted(#"{"type":"seek","position":12.5}"#, .seek(position: 12.5)),
        Accepted(#"{"type":"seek","position":0,"id":1e3}"#, id: .number(1000), .seek(position: 0)),
        Accepted(#"{"type":"seek","position":3600}"#, .seek(position: 3600)),
        Accepted(#"{"type":"frameAck","seq":0}"#, .frameAck(sequence: 0)),
        Accepted(#"{"type":"frameAck","seq":42,"id":""}"#, id: .string(""), .frameAck(sequence: 42)),
        Accepted(#"{"type":"frameAck","seq":18446744073709551615}"#, .frameAck(sequence: .max)),
        Accepted(#"{"type":"frameAck","seq":9007199254740993}"#, .frameAck(sequence: 9_007_199_254_740_993)),
        Accepted(#"{"type":"frameAck","seq":4.2e1}"#, .frameAck(sequence: 42)),
        Accepted(#"{"type":"flow","window":0}"#, .flow(window: 0)),
        Accepted(#"{"type":"flow","window":16,"id":"w"}"#, id: .string("w"), .flow(window: 16)),
        Accepted(#"{"type":"flow","window":4.0}"#, .flow(window: 4)),
        Accepted(#"{"type":"auth","token":"s3cret"}"#, .auth(token: "s3cret")),
        Accepted(#"{"type":"auth","token":"","id":0}"#, id: .number(0), .auth(token: "")),
        Accepted(#"{"type":"record","action":"start"}"#, .record(start: true, filtered: true)),
        Accepted(#"{"type":"record","action":"start","filtered":false,"id":"r"}"#, id: .string("r"),
                 .record(start: true, filtered: false)),
        Accepted(#"{"type":"record","action":"stop"}"#, .record(start: false, filtered: true)),
        Accepted(#"{"type":"open","source":"recordings/2026-11-30T10-15-02Z.mp4"}"#,
                 .open(source: "recordings/2026-11-30T10-15-02Z.mp4")),
        // Paths are the library's to check, not the parser's.
        Accepted(#"{"type":"open","source":"../etc/passwd"}"#, .open(source: "../etc/passwd")),
        Accepted(#"{"type":"delete","source":"recordings/a.mp4","id":3}"#, id: .number(3), .delete(source: "recordings/a.mp4")),
        // Unknown fields are ignored, whatever they hold.
        Accepted(#"{"type":"play","future":{"nested":[1,{"deep":null}],"flag":true},"extra":"x"}"#, .play),
        Accepted(#"{"v":2,"type":"seek","position":1,"precise":false}"#, .seek(position: 1)),
        // Whitespace, key order, escapes, duplicate keys (the last wins, as in JSON.parse).
        Accepted(" \r\n\t{ \"token\" : \"a\\u00e9\\ud83d\\ude00\\n\\\"\\/\" , \"type\" : \"auth\" } \n",
                 .auth(token: "aé😀\n\"/")),
        Accepted(#"{"type":"auth","token":"Grüße 日本"}"#, .auth(token: "Grüße 日本")),
        Accepted(#"{"type":"flow","window":20,"window":2}"#, .flow(window: 2)),
    ]
}

@Suite("Parsing client messages")
struct ParsingTests {
    @Test(arguments: Accepted.cases)
    func parses(_ accepted: Accepted) throws {
        let message = try ClientMessageParser.parse(accepted.json)
        #expect(message == ClientMessage(id: accepted.id, command: accepted.command))
    }

    @Test func parsesFromRawBytes() throws {
        let bytes = Array(#"{"type":"seek","position":2.25,"id":"s"}"#.utf8)
        let message = try bytes.withUnsafeBytes { (buffer) throws(ProtocolError) in try ClientMessageParser.parse(buffer) }
        #expect(message == ClientMessage(id: .string("s"), command: .seek(position: 2.25)))
    }

    @Test func acceptsExactlyTheMaximumSize() throws {
        let head = #"{"type":"play","padding":""#
        let tail = #""}"#
        let padding = String(repeating: "x", count: ClientMessageParser.maximumSize - head.utf8.count - tail.utf8.count)
        let message = head + padding + tail
        #expect(message.utf8.count == 64 * 1024)
        #expect(try ClientMessageParser.parse(message).command == .play)
    }
}
