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
                 .session(.setFilter(name: "sepia", params: ["intensity": 0.5]))),
        Accepted(#"{"type":"setFilter","name":"comic","params":{"levels":4,"edgeThreshold":0.3},"id":"f1"}"#,
                 id: .string("f1"), .session(.setFilter(name: "comic", params: ["levels": 4, "edgeThreshold": 0.3]))),
        Accepted(#"{"type":"setFilter","name":"none"}"#, .session(.setFilter(name: "none", params: [:]))),
        Accepted(#"{"type":"setFilter","name":"sepia","params":{}}"#, .session(.setFilter(name: "sepia", params: [:]))),
        Accepted(#"{"type":"setParams","params":{"scale":12},"id":7}"#, id: .number(7), .session(.setParams(["scale": 12], index: nil))),
        // A choice's id is a string; which parameters take one is the catalog's to check.
        Accepted(#"{"type":"setParams","params":{"style":"style-3","strength":0.5}}"#,
                 .session(.setParams(["style": .choice("style-3"), "strength": 0.5], index: nil))),
        Accepted(#"{"type":"setFilter","name":"style","params":{"style":"style-2"}}"#,
                 .session(.setFilter(name: "style", params: ["style": "style-2"]))),
        Accepted(#"{"type":"setFilter","chain":[{"name":"style","params":{"style":""}},{"name":"vignette"}]}"#,
                 .session(.setFilterChain([FilterLinkRequest(name: "style", params: ["style": ""]), FilterLinkRequest(name: "vignette")]))),
        Accepted(#"{"type":"setParams","params":{}}"#, .session(.setParams([:], index: nil))),
        Accepted(#"{"type":"setParams","params":{"intensity":0.5},"index":0}"#, .session(.setParams(["intensity": 0.5], index: 0))),
        Accepted(#"{"type":"setParams","params":{"scale":3},"index":7}"#, .session(.setParams(["scale": 3], index: 7))),
        Accepted(#"{"type":"setParams","params":{},"index":2.0}"#, .session(.setParams([:], index: 2))),
        // A chain: each link a name and optional params, in order; duplicates are allowed.
        Accepted(#"{"type":"setFilter","chain":[{"name":"invert"},{"name":"sepia","params":{"intensity":0.5}}],"id":"c"}"#,
                 id: .string("c"), .session(.setFilterChain([FilterLinkRequest(name: "invert"),
                                                    FilterLinkRequest(name: "sepia", params: ["intensity": 0.5])]))),
        Accepted(#"{"type":"setFilter","chain":[{"name":"none"}]}"#, .session(.setFilterChain([FilterLinkRequest(name: "none")]))),
        // A link's region (v1 addition): all when left out.
        Accepted(#"{"type":"setFilter","chain":[{"name":"sepia","region":"background"},{"name":"invert","region":"all"},{"name":"mono","region":"person"}]}"#,
                 .session(.setFilterChain([FilterLinkRequest(name: "sepia", region: .background), FilterLinkRequest(name: "invert"),
                                           FilterLinkRequest(name: "mono", region: .person)]))),
        Accepted(#"{"type":"setFilter","chain":[{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"a"},{"name":"b","params":{}}]}"#,
                 .session(.setFilterChain(Array(repeating: FilterLinkRequest(name: "a"), count: 7) + [FilterLinkRequest(name: "b")]))),
        Accepted(#"{"type":"setFilter","chain":[{"name":"sepia","future":1}],"extra":true}"#,
                 .session(.setFilterChain([FilterLinkRequest(name: "sepia")]))),
        Accepted(#"{"type":"play"}"#, .session(.play)),
        Accepted(#"{"type":"play","id":"a"}"#, id: .string("a"), .session(.play)),
        Accepted(#"{"type":"pause","id":-2.5}"#, id: .number(-2.5), .session(.pause)),
        Accepted(#"{"type":"pause"}"#, .session(.pause)),
        Accepted(#"{"type":"seek","position":12.5}"#, .session(.seek(position: 12.5))),
        Accepted(#"{"type":"seek","position":0,"id":1e3}"#, id: .number(1000), .session(.seek(position: 0))),
        Accepted(#"{"type":"seek","position":3600}"#, .session(.seek(position: 3600))),
        Accepted(#"{"type":"step","frames":1}"#, .session(.step(frames: 1))),
        Accepted(#"{"type":"step","frames":-250}"#, .session(.step(frames: -250))),
        Accepted(#"{"type":"step","frames":1e1}"#, .session(.step(frames: 10))),
        Accepted(#"{"type":"speed","rate":2}"#, .session(.speed(PlaybackRate(2)!))),
        Accepted(#"{"type":"speed","rate":-0.25,"id":"s"}"#, id: .string("s"), .session(.speed(PlaybackRate(-0.25)!))),
        Accepted(#"{"type":"speed","rate":4}"#, .session(.speed(PlaybackRate(4)!))),
        Accepted(#"{"type":"loop","in":1.5,"out":3}"#, .session(.loop(LoopRange(in: 1.5, out: 3)!))),
        Accepted(#"{"type":"loop","in":0,"out":0.04}"#, .session(.loop(LoopRange(in: 0, out: 0.04)!))),
        Accepted(#"{"type":"loop","in":null}"#, .session(.loop(nil))),
        Accepted(#"{"type":"loop","in":null,"out":"ignored"}"#, .session(.loop(nil))),
        Accepted(#"{"type":"frameAck","seq":0}"#, .connection(.frameAck(sequence: 0))),
        Accepted(#"{"type":"frameAck","seq":42,"id":""}"#, id: .string(""), .connection(.frameAck(sequence: 42))),
        Accepted(#"{"type":"frameAck","seq":18446744073709551615}"#, .connection(.frameAck(sequence: .max))),
        Accepted(#"{"type":"frameAck","seq":9007199254740993}"#, .connection(.frameAck(sequence: 9_007_199_254_740_993))),
        Accepted(#"{"type":"frameAck","seq":4.2e1}"#, .connection(.frameAck(sequence: 42))),
        Accepted(#"{"type":"frameAck","seq":7,"heldMs":0}"#, .connection(.frameAck(sequence: 7, heldMilliseconds: 0))),
        Accepted(#"{"type":"frameAck","seq":7,"heldMs":60000}"#, .connection(.frameAck(sequence: 7, heldMilliseconds: 60_000))),
        Accepted(#"{"type":"flow","window":0}"#, .connection(.flow(window: 0))),
        Accepted(#"{"type":"flow","window":16,"id":"w"}"#, id: .string("w"), .connection(.flow(window: 16))),
        Accepted(#"{"type":"flow","window":4.0}"#, .connection(.flow(window: 4))),
        Accepted(#"{"type":"auth","token":"s3cret"}"#, .connection(.auth(token: "s3cret"))),
        Accepted(#"{"type":"auth","token":"","id":0}"#, id: .number(0), .connection(.auth(token: ""))),
        Accepted(#"{"type":"record","action":"start"}"#, .session(.record(start: true, filtered: true))),
        Accepted(#"{"type":"record","action":"start","filtered":false,"id":"r"}"#, id: .string("r"),
                 .session(.record(start: true, filtered: false))),
        Accepted(#"{"type":"record","action":"stop"}"#, .session(.record(start: false, filtered: true))),
        Accepted(#"{"type":"open","source":"recordings/2026-11-30T10-15-02Z.mp4"}"#,
                 .session(.open(source: "recordings/2026-11-30T10-15-02Z.mp4"))),
        // Paths are the library's to check, not the parser's.
        Accepted(#"{"type":"open","source":"../etc/passwd"}"#, .session(.open(source: "../etc/passwd"))),
        Accepted(#"{"type":"open","source":"recordings/a.mp4","asRecorded":true}"#,
                 .session(.open(source: "recordings/a.mp4", asRecorded: true))),
        Accepted(#"{"type":"delete","source":"recordings/a.mp4","id":3}"#, id: .number(3), .session(.delete(source: "recordings/a.mp4"))),
        // Unknown fields are ignored, whatever they hold.
        Accepted(#"{"type":"play","future":{"nested":[1,{"deep":null}],"flag":true},"extra":"x"}"#, .session(.play)),
        Accepted(#"{"v":2,"type":"seek","position":1,"precise":false}"#, .session(.seek(position: 1))),
        // Whitespace, key order, escapes, duplicate keys (the last wins, as in JSON.parse).
        Accepted(" \r\n\t{ \"token\" : \"a\\u00e9\\ud83d\\ude00\\n\\\"\\/\" , \"type\" : \"auth\" } \n",
                 .connection(.auth(token: "aé😀\n\"/"))),
        Accepted(#"{"type":"auth","token":"Grüße 日本"}"#, .connection(.auth(token: "Grüße 日本"))),
        Accepted(#"{"type":"flow","window":20,"window":2}"#, .connection(.flow(window: 2))),
    ]
}

@Suite("Parsing client messages")
struct ParsingTests {
    @Test(arguments: Accepted.cases)
    func parses(_ accepted: Accepted) throws {
        let message = try ClientMessageParser.parse(accepted.json)
        #expect(message.id == accepted.id && message.command == accepted.command)
    }

    @Test func parsesFromRawBytes() throws {
        let bytes = Array(#"{"type":"seek","position":2.25,"id":"s"}"#.utf8)
        let message = try bytes.withUnsafeBytes { (buffer) throws(ProtocolError) in try ClientMessageParser.parse(buffer) }
        #expect(message == ClientMessage(id: .string("s"), command: .session(.seek(position: 2.25)), type: "seek"))
    }

    @Test func acceptsExactlyTheMaximumSize() throws {
        let head = #"{"type":"play","padding":""#
        let tail = #""}"#
        let padding = String(repeating: "x", count: ClientMessageParser.maximumSize - head.utf8.count - tail.utf8.count)
        let message = head + padding + tail
        #expect(message.utf8.count == 64 * 1024)
        #expect(try ClientMessageParser.parse(message).command == .session(.play))
    }
}
