import CastProtocol

/// One entry of the command table: a WebSocket command's `type`, the access it needs (the
/// route table's levels) and what it is about, which says who carries it out.
///
/// The access level has no default: a command is listed under one, and `CommandTableTests` lists
/// every command's level and scope, so a command added without thinking about who may send it
/// fails a test.
struct CommandRule: Equatable, Sendable {
    enum Scope: Equatable, Sendable {
        /// The sending connection alone (its flow, its token, what it watches): its
        /// ``ViewerSession`` carries it out.
        case connection
        /// The sender's channel, which every viewer of it shares: the channel's ``Session``
        /// carries it out, through ``ServerCore/apply(_:as:from:)``.
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
        // The connection's own business: anyone connected may, what it watches is checked by
        // `watch`; who the sender is in its channel's room (`name`): a watcher names itself too.
        rules(["auth", "frameAck", "flow", "watch", "name"], access: .anyone, scope: .connection),
        // The picture every viewer of the channel sees, its recordings, its sharing, its room
        // (who presents, where a controller points), its comments (edit, resolve and delete are
        // the author's or the admin's, which the channel's comments check: ServerCore+Comments).
        rules(["setFilter", "setParams", "take", "setCompare", "record", "delete", "share", "present", "point", "comment"],
              access: .control, scope: .channel),
        // Its playback: while someone presents, theirs alone.
        rules(["play", "pause", "seek", "step", "speed", "loop", "open"], access: .control, scope: .channel, drivesPlayback: true),
        // The saved looks are the server's.
        rules(["saveLook", "deleteLook"], access: .control, scope: .server),
    ].joined().map { ($0.type, $0) })

    /// One rule for each of `types`.
    private static func rules(_ types: [String], access: AccessLevel, scope: CommandRule.Scope,
                              drivesPlayback: Bool = false) -> [CommandRule] {
        types.map { CommandRule(type: $0, access: access, scope: scope, drivesPlayback: drivesPlayback) }
    }

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
