/// A JSON value as the client-message parser reads it (RFC 8259). Objects keep the last of
/// duplicate keys, as `JSON.parse` does.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The value as error messages show it after "got": short values as written, longer ones
    /// cut, arrays and objects by kind.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let value): String(value)
        case .number(let number): Self.abbreviated(number.literal)
        case .string(let text): "\"" + Self.abbreviated(text) + "\""
        case .array: "an array"
        case .object: "an object"
        }
    }

    private static func abbreviated(_ text: String) -> String {
        let limit = 32
        return text.count <= limit ? text : text.prefix(limit) + "…"
    }
}
