import CastProtocol

/// One entry of the command table: a WebSocket command's `type`, the access it needs (the
/// route table's levels) and what it is about, which says who carries it out.
///
/// The access level has no default: a command states it, and `CommandTableTests` lists every
/// command's level and scope, so a command added without thinking about who may send it fails a test.
struct CommandRule: Equatable, Sendable {
    enum Scope: Equatable, Sendable {
        /// The sending connection alone (its flow, its token, what it watches): its
        /// ``ViewerSession`` carries it out.
        case connection
        /// The sender's channel, which every viewer of it shares: the channel's ``Session``
        /// carries it out, through ``ServerCore/apply(_:from:)``.
        case channel
        /// What every channel shares (the saved looks): ``ServerCore`` carries it out, and a
        /// channel's own token grants nothing here (as for the routes of the server's scope).
        case server
    }

    let type: String
    let access: AccessLevel
    let scope: Scope
    /// It drives the channel's playback: while someone presents, only they may send it
    /// (``Presenter``; others get `not_presenter`).
    var drivesPlayback = false
}

/// Every command a `/ws` client may send, beside the route table: the parser
/// (``ClientMessageParser``) reads its fields, this table decides who may send it.
enum CommandTable {
    static let rules: [String: CommandRule] = Dictionary(uniqueKeysWithValues: [
        // The connection's own business: anyone connected may, what it watches is checked by `watch`.
        CommandRule(type: "auth", access: .anyone, scope: .connection),
        CommandRule(type: "frameAck", access: .anyone, scope: .connection),
        CommandRule(type: "flow", access: .anyone, scope: .connection),
        CommandRule(type: "watch", access: .anyone, scope: .connection),
        // Who the sender is in its channel's room: a watcher names itself too.
        CommandRule(type: "name", access: .anyone, scope: .connection),
        // The picture and playback every viewer of the channel sees.
        CommandRule(type: "setFilter", access: .control, scope: .channel),
        CommandRule(type: "setParams", access: .control, scope: .channel),
        CommandRule(type: "take", access: .control, scope: .channel),
        CommandRule(type: "setCompare", access: .control, scope: .channel),
        CommandRule(type: "play", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "pause", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "seek", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "step", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "speed", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "loop", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "record", access: .control, scope: .channel),
        CommandRule(type: "open", access: .control, scope: .channel, drivesPlayback: true),
        CommandRule(type: "delete", access: .control, scope: .channel),
        CommandRule(type: "share", access: .control, scope: .channel),
        // The channel's review room: who presents, where a controller points.
        CommandRule(type: "present", access: .control, scope: .channel),
        CommandRule(type: "point", access: .control, scope: .channel),
        // Comments: any controller adds and shows; edit, resolve and delete are the author's or
        // the admin's, which the channel's comments check (ServerCore+Comments).
        CommandRule(type: "comment", access: .control, scope: .channel),
        // The saved looks are the server's.
        CommandRule(type: "saveLook", access: .control, scope: .server),
        CommandRule(type: "deleteLook", access: .control, scope: .server),
    ].map { ($0.type, $0) })

    /// The rule of a parsed message's type (the parser takes only the types this table lists).
    static func rule(for type: String) -> CommandRule {
        guard let rule = rules[type] else { preconditionFailure("the command \(type) has no entry in the command table") }
        return rule
    }
}

extension ProtocolError {
    /// A command of `rule` from a client whose credentials grant less than it needs: for a
    /// command about every channel, when they control the sender's channel only.
    static func refusal(of rule: CommandRule, controlsChannel: Bool) -> ProtocolError {
        guard rule.scope == .server, controlsChannel else { return .tokenRequired }
        return ProtocolError(code: .unauthorized, message: "\(rule.type) changes what every channel shares: "
            + "it needs the server's token (--token) or the admin token, not a channel's own")
    }
}
