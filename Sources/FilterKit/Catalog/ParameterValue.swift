/// A parameter's value as a client sends it: a number, or for a parameter of the choice kind the
/// `id` of one of its ``ParameterDescriptor/Choice``s (a number there is taken as the choice's
/// index, which is what a client that knows only numeric parameters sends).
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, ExpressibleByStringLiteral {
    case number(Double)
    case choice(String)

    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(stringLiteral value: String) { self = .choice(value) }

    public var description: String {
        switch self {
        case .number(let value): value.plainText
        case .choice(let id): "'\(id)'"
        }
    }
}
