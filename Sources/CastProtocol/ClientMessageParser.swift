/// Reads client text messages: one JSON object each, with a `"type"`, an optional `"id"` and the
/// command's fields. Unknown fields are ignored, so that newer clients can talk to this server.
///
/// Checks run in this order, and the first that fails decides the error: size (`too_large`),
/// JSON syntax and the object at the top (`bad_json`), the id (`invalid_argument`), the type
/// (`unknown_type`), then the command's fields. From the type check on, the error carries the id.
public enum ClientMessageParser {
    /// The largest message accepted, in bytes.
    public static let maximumSize = 64 * 1024

    /// The command names, in the order messages list them (``CommandTable``'s).
    public static let commandTypes = CommandTable.all.map(\.type)

    /// Parses one text message. Never throws anything but ProtocolError (typed throws); the error
    /// carries the id when the id could be read.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ProtocolError) -> ClientMessage {
        guard bytes.count <= maximumSize else { throw .tooLarge(byteCount: bytes.count) }
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes)
        } catch {
            throw ProtocolError(code: .badJSON, message: "not valid JSON: \(error)")
        }
        guard case .object(let fields) = root else {
            throw ProtocolError(code: .badJSON, message: "a message must be a JSON object, got \(root.summary)")
        }
        let id = try messageID(fields["id"])
        do throws(ProtocolError) {
            let type = try commandType(fields["type"])
            return ClientMessage(id: id, command: try command(type, fields), type: type)
        } catch {
            throw error.answering(id)
        }
    }

    /// Parses one text message; for tests and tools: the same as parsing the UTF-8 of `text`.
    public static func parse(_ text: String) throws(ProtocolError) -> ClientMessage {
        var text = text
        return try text.withUTF8 { utf8 in
            Result { () throws(ProtocolError) in try parse(UnsafeRawBufferPointer(utf8)) }
        }.get()
    }

    private static func messageID(_ value: JSONValue?) throws(ProtocolError) -> MessageID? {
        switch value {
        case nil: return nil
        case .string(let text): return .string(text)
        case .number(let number) where number.value.isFinite: return .number(number.value)
        case .some(let value):
            throw ProtocolError(code: .invalidArgument, message: "id must be a string or a finite number, got \(value.summary)")
        }
    }

    private static var known: String { "known: " + commandTypes.joined(separator: ", ") }

    private static func commandType(_ value: JSONValue?) throws(ProtocolError) -> String {
        guard let value else {
            throw ProtocolError(code: .unknownType, message: "a message needs a \"type\" (\(known))")
        }
        guard case .string(let type) = value else {
            throw ProtocolError(code: .unknownType, message: "\"type\" must be a string, got \(value.summary) (\(known))")
        }
        return type
    }

    private static func command(_ type: String, _ fields: [String: JSONValue]) throws(ProtocolError) -> ClientCommand {
        guard let rule = CommandTable.rules[type] else {
            throw ProtocolError(code: .unknownType, message: "unknown message type \(JSONValue.string(type).summary) (\(known))")
        }
        return try rule.read(CommandFields(type: type, fields: fields))
    }
}
