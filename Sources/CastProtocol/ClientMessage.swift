/// One parsed client text message: the command and the `id` to echo in its `ack` or `error`.
public struct ClientMessage: Sendable, Equatable {
    public let id: MessageID?
    public let command: ClientCommand

    public init(id: MessageID?, command: ClientCommand) {
        self.id = id
        self.command = command
    }
}
