/// A command's `id`, echoed back verbatim.
///
/// Clients pick ids to match `ack` and `error` replies to their commands: any JSON string, or any
/// finite JSON number. Numbers are held as `Double`, so integers are echoed exactly up to 2^53
/// (JavaScript's safe integers) and written without a fraction (`7`, not `7.0`).
public enum MessageID: Sendable, Equatable, Hashable, Codable {
    case string(String)
    case number(Double)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .number(try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        }
    }
}
