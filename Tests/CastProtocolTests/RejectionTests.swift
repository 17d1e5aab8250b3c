import CastProtocol
import Testing

/// The error a message must get: its code, the id it must carry, and words its text must contain.
struct Rejected: Sendable, CustomStringConvertible {
    let json: String
    let code: ErrorCode
    let id: MessageID?
    let mentions: [String]

    init(_ json: String, _ code: ErrorCode, id: MessageID? = nil, mentions: [String] = []) {
        self.json = json
        self.code = code
        self.id = id
        self.mentions = mentions
    }

    var description: String { "\(code.rawValue): \(json)" }

    static let badJSON = [
        Rejected("", .badJSON), Rejected("   ", .badJSON), Rejected("not json", .badJSON),
        Rejected("{", .badJSON), Rejected(#"{"type":"play""#, .badJSON), Rejected(#"{"type":"play",}"#, .badJSON),
        Rejected(#"{"type":'play'}"#, .badJSON), Rejected(#"{type:"play"}"#, .badJSON),
        Rejected(#"{"type":"play"} {"type":"pause"}"#, .badJSON), Rejected(#"{"type":"play"}x"#, .badJSON),
        Rejected(#"{"type":"flow","window":01}"#, .badJSON), Rejected(#"{"type":"seek","position":.5}"#, .badJSON),
        Rejected(#"{"type":"seek","position":1.}"#, .badJSON), Rejected(#"{"type":"seek","position":NaN}"#, .badJSON),
        Rejected(#"{"type":"seek","position":Infinity}"#, .badJSON), Rejected(#"{"type":"seek","position":+1}"#, .badJSON),
        Rejected(#"{"type":"seek","position":1e}"#, .badJSON), Rejected(#"{"type":"auth","token":"\x"}"#, .badJSON),
        Rejected(#"{"type":"auth","token":"\u12"}"#, .badJSON), Rejected(#"{"type":"auth","token":"\ud800"}"#, .badJSON),
        Rejected(#"{"type":"auth","token":"\udc00\ud800"}"#, .badJSON), Rejected("{\"type\":\"auth\",\"token\":\"a\nb\"}", .badJSON),
        Rejected(#"{"type":"play","x":tru}"#, .badJSON), Rejected(#"{"type":"play","x":nul}"#, .badJSON),
        // Valid JSON that is not an object.
        Rejected("[]", .badJSON), Rejected(#"[{"type":"play"}]"#, .badJSON), Rejected("5", .badJSON),
        Rejected(#""play""#, .badJSON), Rejected("null", .badJSON), Rejected("true", .badJSON),
    ]

    static let unknownType = [
        Rejected("{}", .unknownType, mentions: ["type", "setFilter"]),
        Rejected(#"{"id":"a"}"#, .unknownType, id: .string("a")),
        Rejected(#"{"type":5,"id":3}"#, .unknownType, id: .number(3)),
        Rejected(#"{"type":null}"#, .unknownType),
        Rejected(#"{"type":"dance","id":"d"}"#, .unknownType, id: .string("d"), mentions: ["dance", "frameAck"]),
        Rejected(#"{"type":"Play"}"#, .unknownType),
        Rejected(#"{"type":""}"#, .unknownType),
    ]

    static let invalidArgument = [
        Rejected(#"{"type":"speed","rate":"2"}"#, .invalidArgument, mentions: ["speed.rate", "a number in -4…-0.25 or 0.25…4"]),
        Rejected(#"{"type":"speed"}"#, .invalidArgument, mentions: ["speed.rate", "required"]),
        Rejected(#"{"type":"loop","out":1}"#, .invalidArgument, mentions: ["loop.in", "required", "null to end the loop"]),
        Rejected(#"{"type":"loop","in":1}"#, .invalidArgument, mentions: ["loop.out", "required"]),
        Rejected(#"{"type":"loop","in":"1","out":2}"#, .invalidArgument, mentions: ["loop.in"]),
        Rejected(#"{"type":"seek","position":"abc","id":"s1"}"#, .invalidArgument, id: .string("s1"),
                 mentions: ["seek.position", "\"abc\""]),
        Rejected(#"{"type":"seek","position":true}"#, .invalidArgument, mentions: ["seek.position"]),
        Rejected(#"{"type":"seek","position":null}"#, .invalidArgument, mentions: ["seek.position"]),
        Rejected(#"{"type":"seek","position":[1]}"#, .invalidArgument, mentions: ["seek.position"]),
        Rejected(#"{"type":"seek"}"#, .invalidArgument, mentions: ["seek.position", "required"]),
        Rejected(#"{"type":"setFilter","name":5,"id":9}"#, .invalidArgument, id: .number(9), mentions: ["setFilter.name"]),
        Rejected(#"{"type":"setFilter"}"#, .invalidArgument, mentions: ["setFilter.name", "required"]),
        Rejected(#"{"type":"setFilter","name":"sepia","params":[0.5]}"#, .invalidArgument, mentions: ["setFilter.params"]),
        Rejected(#"{"type":"setFilter","name":"sepia","params":null}"#, .invalidArgument, mentions: ["setFilter.params"]),
        Rejected(#"{"type":"setFilter","name":"sepia","params":{"intensity":[1]}}"#, .invalidArgument,
                 mentions: ["setFilter.params.intensity", "a number or a choice's id"]),
        Rejected(#"{"type":"setFilter","name":"style","params":{"style":null}}"#, .invalidArgument,
                 mentions: ["setFilter.params.style", "a number or a choice's id"]),
        Rejected(#"{"type":"setParams","params":{"scale":4,"intensity":true}}"#, .invalidArgument,
                 mentions: ["setParams.params.intensity"]),
        Rejected(#"{"type":"setParams","params":0.5}"#, .invalidArgument, mentions: ["setParams.params"]),
        Rejected(#"{"type":"setParams","params":{},"index":"1"}"#, .invalidArgument, mentions: ["setParams.index", "0…7"]),
        Rejected(#"{"type":"setParams","params":{},"index":0.5}"#, .invalidArgument, mentions: ["setParams.index"]),
        Rejected(#"{"type":"setParams","params":{},"index":null}"#, .invalidArgument, mentions: ["setParams.index"]),
        // setFilter's chain: exactly one of name and chain, an array of objects, each with a string name.
        Rejected(#"{"type":"setFilter","name":"sepia","chain":[{"name":"invert"}],"id":"b"}"#, .invalidArgument,
                 id: .string("b"), mentions: ["either name", "chain", "setFilter.name"]),
        Rejected(#"{"type":"setFilter","params":{},"chain":[{"name":"invert"}]}"#, .invalidArgument,
                 mentions: ["either name", "setFilter.params"]),
        Rejected(#"{"type":"setFilter","chain":{"name":"invert"}}"#, .invalidArgument,
                 mentions: ["setFilter.chain", "an array", "1…8", "an object"]),
        Rejected(#"{"type":"setFilter","chain":null}"#, .invalidArgument, mentions: ["setFilter.chain"]),
        Rejected(#"{"type":"setFilter","chain":"sepia"}"#, .invalidArgument, mentions: ["setFilter.chain", "\"sepia\""]),
        Rejected(#"{"type":"setFilter","chain":["sepia"]}"#, .invalidArgument, mentions: ["setFilter.chain[0]", "an object"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"invert"},{"params":{}}]}"#, .invalidArgument,
                 mentions: ["setFilter.chain[1].name", "required"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":7}]}"#, .invalidArgument, mentions: ["setFilter.chain[0].name", "a string"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"sepia","params":[1]}]}"#, .invalidArgument,
                 mentions: ["setFilter.chain[0].params"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"invert"},{"name":"sepia","params":{"intensity":{}}}]}"#,
                 .invalidArgument, mentions: ["setFilter.chain[1].params.intensity", "a number"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"sepia","region":"face"}]}"#, .outOfRange,
                 mentions: ["setFilter.chain[0].region", "\"all\", \"person\", \"background\"", "\"face\""]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"sepia"},{"name":"sepia","region":1}]}"#, .invalidArgument,
                 mentions: ["setFilter.chain[1].region", "one of"]),
        Rejected(#"{"type":"setFilter","chain":[{"name":"sepia","region":null}]}"#, .invalidArgument,
                 mentions: ["setFilter.chain[0].region"]),
        Rejected(#"{"type":"setParams"}"#, .invalidArgument, mentions: ["setParams.params", "required"]),
        Rejected(#"{"type":"frameAck","seq":-1}"#, .invalidArgument, mentions: ["frameAck.seq"]),
        Rejected(#"{"type":"frameAck","seq":1.5}"#, .invalidArgument, mentions: ["frameAck.seq"]),
        Rejected(#"{"type":"frameAck","seq":"3"}"#, .invalidArgument, mentions: ["frameAck.seq"]),
        Rejected(#"{"type":"frameAck","seq":18446744073709551616}"#, .invalidArgument, mentions: ["frameAck.seq"]),
        Rejected(#"{"type":"frameAck"}"#, .invalidArgument, mentions: ["frameAck.seq"]),
        Rejected(#"{"type":"frameAck","seq":1,"heldMs":-1}"#, .outOfRange, mentions: ["frameAck.heldMs", "0…60000"]),
        Rejected(#"{"type":"frameAck","seq":1,"heldMs":60001}"#, .outOfRange, mentions: ["frameAck.heldMs"]),
        Rejected(#"{"type":"frameAck","seq":1,"heldMs":2.5}"#, .invalidArgument, mentions: ["frameAck.heldMs"]),
        Rejected(#"{"type":"frameAck","seq":1,"heldMs":"9"}"#, .invalidArgument, mentions: ["frameAck.heldMs"]),
        Rejected(#"{"type":"flow","window":2.5}"#, .invalidArgument, mentions: ["flow.window", "0…16"]),
        Rejected(#"{"type":"flow","window":"4"}"#, .invalidArgument, mentions: ["flow.window"]),
        Rejected(#"{"type":"flow"}"#, .invalidArgument, mentions: ["flow.window"]),
        Rejected(#"{"type":"auth","token":42}"#, .invalidArgument, mentions: ["auth.token"]),
        Rejected(#"{"type":"auth"}"#, .invalidArgument, mentions: ["auth.token"]),
        Rejected(#"{"type":"record"}"#, .invalidArgument, mentions: ["record.action", "required", "\"start\""]),
        Rejected(#"{"type":"record","action":1}"#, .invalidArgument, mentions: ["record.action"]),
        Rejected(#"{"type":"record","action":"start","filtered":"yes"}"#, .invalidArgument,
                 mentions: ["record.filtered", "true or false"]),
        Rejected(#"{"type":"open"}"#, .invalidArgument, mentions: ["open.source", "required"]),
        Rejected(#"{"type":"open","source":["a"]}"#, .invalidArgument, mentions: ["open.source"]),
        Rejected(#"{"type":"delete","source":null}"#, .invalidArgument, mentions: ["delete.source"]),
        // An id that is neither a string nor a number cannot be echoed, so the error has none.
        Rejected(#"{"type":"play","id":true}"#, .invalidArgument, mentions: ["id"]),
        Rejected(#"{"type":"play","id":{"n":1}}"#, .invalidArgument, mentions: ["id"]),
        Rejected(#"{"type":"play","id":null}"#, .invalidArgument, mentions: ["id"]),
        Rejected(#"{"type":"play","id":1e999}"#, .invalidArgument, mentions: ["id"]),
    ]

    static let outOfRange = [
        Rejected(#"{"type":"step","frames":0,"id":"z"}"#, .outOfRange, id: .string("z"), mentions: ["step.frames", "-250…-1 or 1…250", "0"]),
        Rejected(#"{"type":"step","frames":251}"#, .outOfRange, mentions: ["step.frames", "-250…250", "251"]),
        Rejected(#"{"type":"step","frames":-251}"#, .outOfRange, mentions: ["step.frames", "-251"]),
        Rejected(#"{"type":"speed","rate":0,"id":"v"}"#, .outOfRange, id: .string("v"), mentions: ["speed.rate", "-4…-0.25 or 0.25…4", "0"]),
        Rejected(#"{"type":"speed","rate":4.01}"#, .outOfRange, mentions: ["speed.rate", "-4…-0.25 or 0.25…4", "4.01"]),
        Rejected(#"{"type":"speed","rate":-0.2}"#, .outOfRange, mentions: ["speed.rate", "-0.2"]),
        Rejected(#"{"type":"speed","rate":0.24}"#, .outOfRange, mentions: ["speed.rate"]),
        Rejected(#"{"type":"speed","rate":-4.5}"#, .outOfRange, mentions: ["speed.rate"]),
        Rejected(#"{"type":"speed","rate":1e999}"#, .outOfRange, mentions: ["speed.rate"]),
        Rejected(#"{"type":"loop","in":2,"out":1}"#, .outOfRange, mentions: ["loop.out", "after loop.in (2.0)", "1"]),
        Rejected(#"{"type":"loop","in":1,"out":1}"#, .outOfRange, mentions: ["loop.out"]),
        Rejected(#"{"type":"loop","in":-1,"out":1}"#, .outOfRange, mentions: ["loop.in", "≥ 0", "-1"]),
        Rejected(#"{"type":"loop","in":0,"out":1e999}"#, .outOfRange, mentions: ["loop.out"]),
        Rejected(#"{"type":"flow","window":17,"id":"w"}"#, .outOfRange, id: .string("w"), mentions: ["flow.window", "0…16", "17"]),
        Rejected(#"{"type":"flow","window":-1}"#, .outOfRange, mentions: ["flow.window", "0…16"]),
        Rejected(#"{"type":"setParams","params":{},"index":8,"id":1}"#, .outOfRange, id: .number(1), mentions: ["setParams.index", "0…7", "8"]),
        Rejected(#"{"type":"setParams","params":{},"index":-1}"#, .outOfRange, mentions: ["setParams.index"]),
        Rejected(#"{"type":"setFilter","chain":[],"id":"e"}"#, .outOfRange, id: .string("e"),
                 mentions: ["setFilter.chain", "1…8", "got 0"]),
        Rejected(#"{"type":"setFilter","chain":["# + Array(repeating: #"{"name":"invert"}"#, count: 9).joined(separator: ",") + "]}",
                 .outOfRange, mentions: ["setFilter.chain", "1…8", "got 9"]),
        Rejected(#"{"type":"flow","window":1e300}"#, .outOfRange, mentions: ["flow.window"]),
        Rejected(#"{"type":"flow","window":1e999}"#, .outOfRange, mentions: ["flow.window"]),
        Rejected(#"{"type":"seek","position":-1,"id":4}"#, .outOfRange, id: .number(4), mentions: ["seek.position", "≥ 0", "-1"]),
        Rejected(#"{"type":"seek","position":-0.001}"#, .outOfRange, mentions: ["seek.position"]),
        Rejected(#"{"type":"seek","position":1e999}"#, .outOfRange, mentions: ["seek.position", "finite"]),
        Rejected(#"{"type":"seek","position":-1e999}"#, .outOfRange, mentions: ["seek.position"]),
        Rejected(#"{"type":"record","action":"pause","id":"r"}"#, .outOfRange, id: .string("r"),
                 mentions: ["record.action", "\"start\", \"stop\"", "\"pause\""]),
    ]
}

/// The error `text` gets, or nil when it parses.
extension Rejected {
    /// Expects the parser to refuse `json` with this code, id and words.
    func check() throws {
        let error = try #require(rejection(json))
        #expect(error.code == code, "\(error)")
        #expect(error.id == id)
        for word in mentions {
            #expect(error.message.contains(word), "\(error.message) should mention \(word)")
        }
    }
}

func rejection(_ text: String) -> ProtocolError? {
    do {
        _ = try ClientMessageParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("Rejecting bad client messages")
struct RejectionTests {
    @Test(arguments: Rejected.badJSON + Rejected.unknownType + Rejected.invalidArgument + Rejected.outOfRange)
    func rejects(_ rejected: Rejected) throws {
        try rejected.check()
    }

    @Test func badJSONMessagesSayWhere() throws {
        let error = try #require(rejection(#"{"type":"play",}"#))
        #expect(error.message == "not valid JSON: expected a string key at byte 15")
        let topLevel = try #require(rejection("[1,2]"))
        #expect(topLevel.message == "a message must be a JSON object, got an array")
    }

    @Test func rejectsInvalidUTF8() throws {
        let bytes: [UInt8] = Array(#"{"type":"auth","token":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProtocolError) in try ClientMessageParser.parse(buffer) }
        }
        guard case .failure(let error) = result else {
            Issue.record("invalid UTF-8 was accepted")
            return
        }
        #expect(error.code == .badJSON)
    }

    @Test func rejectsMessagesOverTheLimit() throws {
        let head = #"{"type":"play","id":"big","padding":""#
        let padding = String(repeating: "x", count: ClientMessageParser.maximumSize - head.utf8.count - 1)
        let message = head + padding + #""}"#
        #expect(message.utf8.count == 64 * 1024 + 1)
        let error = try #require(rejection(message))
        #expect(error.code == .tooLarge)
        #expect(error.id == nil)
        #expect(error.message.contains("65536"))
        #expect(ProtocolError.tooLarge(byteCount: 70_000).code == .tooLarge)
    }

    @Test func rejectsDeepNestingWithoutRecursingFurther() throws {
        let deep = #"{"type":"play","x":"# + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "}"
        let error = try #require(rejection(deep))
        #expect(error.code == .badJSON)
        #expect(error.message.contains("nested deeper than 64"))
        let allowed = #"{"type":"play","x":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        #expect(try ClientMessageParser.parse(allowed).command == .session(.play))
    }

    @Test func longValuesAreCutInMessages() throws {
        let error = try #require(rejection(#"{"type":"seek","position":""# + String(repeating: "y", count: 5000) + #""}"#))
        #expect(error.message.count < 200)
        #expect(error.message.contains("…"))
    }

    @Test func binaryMessagesAreInvalidArguments() {
        #expect(ProtocolError.binaryMessage.code == .invalidArgument)
        #expect(ProtocolError.binaryMessage.id == nil)
    }

    @Test func theTransportsErrorsHaveTheirCodesAndNoId() {
        let partial = ProtocolError.tooLarge(atLeast: 70_000)
        #expect(partial.code == .tooLarge && partial.message.contains("at least 70000") && partial.message.contains("65536"))
        #expect(ProtocolError.rateLimited(perSecond: 60).code == .rateLimited)
        #expect(ProtocolError.rateLimited(perSecond: 60).message.contains("60"))
        #expect(ProtocolError.wrongToken.code == .unauthorized && ProtocolError.tokenRequired.code == .unauthorized)
        let stopped = ProtocolError.recordingStopped("disk full")
        #expect(stopped.code == .recordingFailed && stopped.message == "recording stopped: disk full")
        for error in [partial, .wrongToken, .tokenRequired, stopped] { #expect(error.id == nil) }
    }

    @Test func answeringStampsTheIdAndKeepsTheRest() {
        let refused = ProtocolError(code: .notFound, message: "no such file")
        #expect(refused.answering(.number(4)) == ProtocolError(code: .notFound, message: "no such file", id: .number(4)))
        #expect(refused.answering(.number(4)).answering(nil).id == nil)
    }

    @Test func errorDescriptionShowsCodeAndMessage() {
        let error = ProtocolError(code: .notSeekable, message: "the source is live", id: .string("x"))
        #expect(error.description == "not_seekable: the source is live")
    }
}
