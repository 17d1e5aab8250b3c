@testable import CastServer
import CastProtocol
import Testing

/// The command table: every WebSocket command's access level and scope stated here, checked by
/// the viewer before the command runs, for senders with each level of credentials. No socket.
@Suite struct CommandTableTests {
    /// Every command and the access it needs, as the route table's test lists the routes. A
    /// command added to the parser and not here (or here with another level) fails a test.
    static let expected: [String: (AccessLevel, CommandRule.Scope)] = [
        "auth": (.anyone, .connection), "frameAck": (.anyone, .connection), "flow": (.anyone, .connection),
        "watch": (.anyone, .connection), "name": (.anyone, .connection),
        "setFilter": (.control, .channel), "setParams": (.control, .channel), "take": (.control, .channel),
        "setCompare": (.control, .channel), "play": (.control, .channel), "pause": (.control, .channel),
        "seek": (.control, .channel), "step": (.control, .channel), "record": (.control, .channel),
        "speed": (.control, .channel), "loop": (.control, .channel),
        "open": (.control, .channel), "delete": (.control, .channel), "share": (.control, .channel),
        "saveLook": (.control, .server), "deleteLook": (.control, .server),
        "present": (.control, .channel), "point": (.control, .channel), "comment": (.control, .channel),
    ]

    /// The commands only the presenter may send while someone presents.
    static let drivingPlayback: Set<String> = ["play", "pause", "seek", "step", "open", "speed", "loop"]

    @Test func theCommandsThatDrivePlaybackAreTheOnesListedHere() {
        #expect(Set(CommandTable.rules.values.filter(\.drivesPlayback).map(\.type)) == Self.drivingPlayback)
    }

    /// One message of each type that the parser accepts.
    static let samples: [String: String] = [
        "auth": #"{"type":"auth","token":"nope"}"#, "frameAck": #"{"type":"frameAck","seq":0}"#,
        "flow": #"{"type":"flow","window":2}"#, "watch": #"{"type":"watch","transport":"jpeg"}"#,
        "setFilter": #"{"type":"setFilter","name":"sepia"}"#, "setParams": #"{"type":"setParams","params":{"intensity":0.5}}"#,
        "take": #"{"type":"take"}"#, "setCompare": #"{"type":"setCompare","on":true}"#,
        "play": #"{"type":"play"}"#, "pause": #"{"type":"pause"}"#, "seek": #"{"type":"seek","position":1}"#,
        "step": #"{"type":"step","frames":1}"#, "record": #"{"type":"record","action":"start"}"#,
        "speed": #"{"type":"speed","rate":2}"#, "loop": #"{"type":"loop","in":null}"#,
        "open": #"{"type":"open","source":"input"}"#, "delete": #"{"type":"delete","source":"recordings/a.mp4"}"#,
        "share": #"{"type":"share","action":"stop"}"#, "saveLook": #"{"type":"saveLook","name":"warm"}"#,
        "deleteLook": #"{"type":"deleteLook","name":"warm"}"#, "name": #"{"type":"name","name":"Ana"}"#,
        "present": #"{"type":"present","action":"take"}"#, "point": #"{"type":"point","x":0.5,"y":0.5}"#,
        "comment": #"{"type":"comment","action":"add","frame":3,"text":"warmer here"}"#,
    ]

    @Test func everyCommandTheParserKnowsDeclaresTheLevelAndScopeListedHere() {
        #expect(Set(Self.expected.keys) == Set(ClientMessageParser.commandTypes))
        for (type, rule) in CommandTable.rules {
            #expect(rule.type == type)
            #expect(Self.expected[type].map { $0 == (rule.access, rule.scope) } == true, "\(type): \(rule)")
        }
    }

    @Test func theSamplesParseAsTheirType() throws {
        #expect(Set(Self.samples.keys) == Set(ClientMessageParser.commandTypes))
        for (type, json) in Self.samples { #expect(try ClientMessageParser.parse(json).type == type) }
    }

    /// The credentials that grant each level on a server with `--token secret`, `--admin-token
    /// boss`, `--public-view` and a channel token `own`; `own` controls the channel only.
    static let credentials: [(token: String?, channel: AccessLevel, server: AccessLevel)] = [
        (nil, .watch, .watch), ("own", .control, .watch), ("secret", .control, .control), ("boss", .admin, .admin),
    ]

    @Test(arguments: credentials.indices)
    func noCommandIsCarriedOutForASenderBelowItsLevel(credential: Int) {
        let (token, channelLevel, serverLevel) = Self.credentials[credential]
        let policy = AccessPolicy(token: AccessToken("secret"), adminToken: AccessToken("boss"), publicView: true)
        for (type, json) in Self.samples {
            let harness = ViewerSessionTests()
            let viewer = ViewerSession(token: token, policy: policy.on(channelToken: AccessToken("own")), offer: ViewerSessionTests.offer,
                                       now: { [clock = harness.clock] in clock.now })
            _ = harness.writes(viewer)  // the hello
            harness.send(json, to: viewer)
            let rule = CommandTable.rule(for: type)
            let refused = harness.messages(harness.writes(viewer)).contains { $0["code"] as? String == "unauthorized" }
            let granted = rule.scope == .server ? serverLevel : channelLevel
            if type == "auth" { continue }  // its refusal is of the token it gives, not of the sender
            #expect(refused == (granted < rule.access), "\(type) from \(token ?? "no token")")
            if refused { #expect(harness.commands.applied.isEmpty, "\(type) was carried out") }
        }
    }
}
