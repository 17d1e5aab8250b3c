/// One parsed client text message: the command, the `type` it was sent by and the `id` to echo
/// in its `ack` or `error`.
public struct ClientMessage: Sendable, Equatable {
    public let id: MessageID?
    public let command: ClientCommand
    /// The message's `"type"`, one of ``ClientMessageParser/commandTypes``: the name the server's
    /// command table knows the command by (two types may parse to commands of one kind).
    public let type: String

    public init(id: MessageID?, command: ClientCommand, type: String) {
        self.id = id
        self.command = command
        self.type = type
    }
}
