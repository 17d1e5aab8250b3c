/// Why a filter request was refused. Each message names the filter, parameter and allowed range.
public enum FilterError: Error, Equatable, CustomStringConvertible {
    case unknownFilter(String, known: [String])
    case unknownParameter(filter: String, parameter: String, known: [String])
    case invalidValue(filter: String, parameter: String, value: Double, min: Double, max: Double)

    public var description: String {
        switch self {
        case .unknownFilter(let name, let known):
            "unknown filter '\(name)' (known: \(known.joined(separator: ", ")))"
        case .unknownParameter(let filter, let parameter, let known):
            known.isEmpty
                ? "filter '\(filter)' has no parameters, got '\(parameter)'"
                : "filter '\(filter)' has no parameter '\(parameter)' (known: \(known.joined(separator: ", ")))"
        case .invalidValue(let filter, let parameter, let value, let min, let max):
            "\(filter).\(parameter) must be a number in \(format(min))…\(format(max)), got \(format(value))"
        }
    }
}

private func format(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
}
