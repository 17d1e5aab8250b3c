/// A refused client message: what the server sends back as an `error` message.
///
/// `message` is for people: it names the field or parameter and the allowed range. `id` is the
/// id of the command that was refused, when it could be read.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String
    public var id: MessageID?

    public init(code: ErrorCode, message: String, id: MessageID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// A message longer than ``ClientMessageParser/maximumSize``; the transport reports this too
    /// when it stops collecting the fragments of a message that grew too large.
    public static func tooLarge(byteCount: Int) -> ProtocolError {
        ProtocolError(code: .tooLarge,
                      message: "message of \(byteCount) bytes is over the limit of \(ClientMessageParser.maximumSize) bytes")
    }

    /// Clients send text (JSON) messages only.
    public static let binaryMessage = ProtocolError(
        code: .invalidArgument, message: "binary messages are not accepted from clients; send JSON text messages")

    public var description: String { "\(code.rawValue): \(message)" }
}
