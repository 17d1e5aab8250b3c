import FilterKit

/// One WebSocket command: its `type`, the access it needs (the route table's levels), what it is
/// about (which says who carries it out), and how its fields are read.
///
/// The access level and scope have no default: a command is listed under both, and
/// `CommandTableTests` lists every command's, so a command added without thinking about who may
/// send it fails a test.
public struct CommandRule: Sendable {
    public enum Scope: Equatable, Sendable {
        /// The sending connection alone (its flow, its token, what it watches): its viewer
        /// carries it out.
        case connection
        /// The sender's channel, which every viewer of it shares: the channel's session (or its
        /// room) carries it out.
        case channel
        /// What every channel shares (the saved looks): the server core carries it out, and a
        /// channel's own token grants nothing here (as for the routes of the server's scope).
        case server
    }

    public let type: String
    public let access: AccessLevel
    public let scope: Scope
    /// It drives the channel's playback: while someone presents, only they may send it (others
    /// get `not_presenter`).
    public let drivesPlayback: Bool
    /// The command its message's fields say, with the checks the parser promises.
    let read: @Sendable (CommandFields) throws(ProtocolError) -> ClientCommand

    init(_ type: String, _ access: AccessLevel, _ scope: Scope, drivesPlayback: Bool = false,
         read: @escaping @Sendable (CommandFields) throws(ProtocolError) -> ClientCommand) {
        self.type = type
        self.access = access
        self.scope = scope
        self.drivesPlayback = drivesPlayback
        self.read = read
    }

    /// The refusal of this command to a sender whose credentials grant less than it needs: for a
    /// command about every channel, when they control the sender's channel only, it says why.
    public func refusal(controlsChannel: Bool) -> ProtocolError {
        guard scope == .server, controlsChannel else { return .tokenRequired }
        return ProtocolError(code: .unauthorized, message: "\(type) changes what every channel shares: "
            + "it needs the server's token (--token) or the admin token, not a channel's own")
    }
}

/// Every command a `/ws` client may send, beside the route table: who may send it, who carries it
/// out, and how ``ClientMessageParser`` reads it. To add a command: a row here, its case (and its
/// activity sentence) in ``SessionCommand`` or ``ConnectionCommand``, and where its scope says
/// it is carried out.
public enum CommandTable {
    /// The commands in the order messages list them.
    public static let all: [CommandRule] = [
        // The connection's own business: anyone connected may, what it watches is checked by
        // `watch`; who the sender is in its channel's room (`name`): a watcher names itself too.
        CommandRule("auth", .anyone, .connection) { fields throws(ProtocolError) in
            .connection(.auth(token: try fields.string("token")))
        },
        CommandRule("frameAck", .anyone, .connection) { fields throws(ProtocolError) in
            .connection(.frameAck(sequence: try fields.unsignedInteger("seq"),
                                  heldMilliseconds: try fields.optionalInteger("heldMs", in: 0...ConnectionCommand.maximumHeldMilliseconds)))
        },
        CommandRule("flow", .anyone, .connection) { fields throws(ProtocolError) in
            .connection(.flow(window: try fields.integer("window", in: 0...ConnectionCommand.maximumWindow)))
        },
        CommandRule("watch", .anyone, .connection) { fields throws(ProtocolError) in
            let transport = try fields.choice("transport", of: FrameTransport.allCases.map(\.rawValue))
            return .connection(.watch(transport: FrameTransport(rawValue: transport)!, rendition: try fields.optionalString("rendition"),
                                      audio: try fields.boolean("audio")))
        },
        CommandRule("name", .anyone, .connection) { fields throws(ProtocolError) in .connection(.name(try fields.personName())) },
        // The picture every viewer of the channel sees, its recordings, its sharing.
        CommandRule("setFilter", .control, .channel) { fields throws(ProtocolError) in
            .session(fields.fields["look"] != nil ? try fields.applyLook() : try fields.filterChoice())
        },
        CommandRule("setParams", .control, .channel) { fields throws(ProtocolError) in
            .session(.setParams(try fields.parameters("params", required: true),
                                index: try fields.optionalInteger("index", in: 0...FilterChain.maximumLength - 1),
                                to: try fields.chainTarget("to")))
        },
        CommandRule("take", .control, .channel) { fields throws(ProtocolError) in .session(.take(try fields.takeTransition())) },
        CommandRule("setCompare", .control, .channel) { fields throws(ProtocolError) in
            .session(.setCompare(try fields.compareChange()))
        },
        CommandRule("record", .control, .channel) { fields throws(ProtocolError) in
            let start = try fields.choice("action", of: ["start", "stop"]) == "start"
            return .session(.record(start: start, filtered: try fields.boolean("filtered") ?? true))
        },
        CommandRule("delete", .control, .channel) { fields throws(ProtocolError) in
            .session(.delete(source: try fields.string("source")))
        },
        CommandRule("share", .control, .channel) { fields throws(ProtocolError) in
            let starts = try fields.choice("action", of: ["start", "stop"]) == "start"
            return .session(.share(starts ? try fields.shareRequest() : nil))
        },
        // Its room: who presents, where a controller points, its comments (edit, resolve and
        // delete are the author's or the admin's, which the channel's comments check).
        CommandRule("present", .control, .channel) { fields throws(ProtocolError) in .session(try fields.presentation()) },
        CommandRule("point", .control, .channel) { fields throws(ProtocolError) in
            .session(.point(try fields.pointerPosition()))
        },
        CommandRule("comment", .control, .channel) { fields throws(ProtocolError) in .session(.comment(try fields.comment())) },
        // Its playback: while someone presents, theirs alone.
        CommandRule("play", .control, .channel, drivesPlayback: true) { _ throws(ProtocolError) in .session(.play) },
        CommandRule("pause", .control, .channel, drivesPlayback: true) { _ throws(ProtocolError) in .session(.pause) },
        CommandRule("seek", .control, .channel, drivesPlayback: true) { fields throws(ProtocolError) in
            .session(.seek(position: try fields.number("position", atLeast: 0, "a finite number of seconds ≥ 0")))
        },
        CommandRule("step", .control, .channel, drivesPlayback: true) { fields throws(ProtocolError) in
            .session(.step(frames: try fields.stepFrames()))
        },
        CommandRule("speed", .control, .channel, drivesPlayback: true) { fields throws(ProtocolError) in
            .session(.speed(try fields.playbackRate()))
        },
        CommandRule("loop", .control, .channel, drivesPlayback: true) { fields throws(ProtocolError) in
            .session(.loop(try fields.loopRange()))
        },
        CommandRule("open", .control, .channel, drivesPlayback: true) { fields throws(ProtocolError) in
            .session(.open(source: try fields.string("source"), asRecorded: try fields.boolean("asRecorded") ?? false))
        },
        // The saved looks are the server's.
        CommandRule("saveLook", .control, .server) { fields throws(ProtocolError) in .session(try fields.saveLook()) },
        CommandRule("deleteLook", .control, .server) { fields throws(ProtocolError) in .session(try fields.deleteLook()) },
    ]

    /// The rules by type.
    public static let rules = Dictionary(uniqueKeysWithValues: all.map { ($0.type, $0) })

    /// The rule of a parsed message's type (the parser takes only the types this table lists).
    public static func rule(for type: String) -> CommandRule {
        guard let rule = rules[type] else { preconditionFailure("the command \(type) has no entry in the command table") }
        return rule
    }
}
