import CastProtocol

/// Commands that change what every channel shares rather than the sender's channel: they need
/// control of the server (`--token`, or `--admin-token`; without `--token`, anybody), never a
/// channel's own token, which controls that channel only. The HTTP routes that change shared
/// things (LUTs, styles) say the same by being of the server's scope (``Route/Scope``).
extension SessionCommand {
    /// Whether this command changes what every channel shares (the saved looks).
    var changesServer: Bool {
        switch self {
        case .saveLook, .deleteLook: true
        default: false
        }
    }

    /// The name a client sends it by, for refusals.
    var serverWideName: String {
        switch self {
        case .saveLook: "saveLook"
        case .deleteLook: "deleteLook"
        default: "this command"
        }
    }
}

extension ProtocolError {
    /// `command` (one that ``SessionCommand/changesServer``) from a client whose credentials
    /// control its channel only.
    static func serverTokenRequired(for command: SessionCommand) -> ProtocolError {
        ProtocolError(code: .unauthorized, message: "\(command.serverWideName) changes what every channel shares: "
            + "it needs the server's token (--token) or the admin token, not a channel's own")
    }
}
