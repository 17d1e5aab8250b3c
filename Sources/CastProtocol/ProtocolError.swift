/// A refused client message: what the server sends back as an `error` message.
///
/// `message` is for people: it names the field or parameter and the allowed range. `id` is the
/// id of the command that was refused, when it could be read.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: ErrorCode
    public let message: String
    public let id: MessageID?

    public init(code: ErrorCode, message: String, id: MessageID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// The same error as the answer to the command `id` (the one place a refusal gets its id is
    /// where the command is dispatched; the parser, which reads the id first, stamps it too).
    public func answering(_ id: MessageID?) -> ProtocolError {
        ProtocolError(code: code, message: message, id: id)
    }

    /// A message of `byteCount` bytes, longer than ``ClientMessageParser/maximumSize``.
    public static func tooLarge(byteCount: Int) -> ProtocolError {
        tooLarge(sizeText: "\(byteCount)")
    }

    /// A message whose fragments reached `byteCount` bytes, over ``ClientMessageParser/maximumSize``:
    /// the transport stops collecting there, so the whole size is never known.
    public static func tooLarge(atLeast byteCount: Int) -> ProtocolError {
        tooLarge(sizeText: "at least \(byteCount)")
    }

    private static func tooLarge(sizeText: String) -> ProtocolError {
        ProtocolError(code: .tooLarge,
                      message: "message of \(sizeText) bytes is over the limit of \(ClientMessageParser.maximumSize) bytes")
    }

    /// Clients send text (JSON) messages only.
    public static let binaryMessage = ProtocolError(
        code: .invalidArgument, message: "binary messages are not accepted from clients; send JSON text messages")

    /// A command over the client's budget of `perSecond` commands a second (it is dropped).
    public static func rateLimited(perSecond: Int) -> ProtocolError {
        ProtocolError(code: .rateLimited, message: "more than \(perSecond) messages a second")
    }

    /// `auth` with a token that is not the server's.
    public static let wrongToken = ProtocolError(code: .unauthorized, message: "wrong token")

    /// A command from a client that has not given the server's token.
    public static let tokenRequired = ProtocolError(code: .unauthorized,
                                                    message: "this server needs a token to take commands")

    /// A recording stopped by itself for `reason` (sent to every viewer, without an id).
    public static func recordingStopped(_ reason: String) -> ProtocolError {
        ProtocolError(code: .recordingFailed, message: "recording stopped: \(reason)")
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
