/// Why a filter request was refused. Each message names the filter, parameter and allowed range.
public indirect enum FilterError: Error, Equatable, CustomStringConvertible {
    case unknownFilter(String, known: [String])
    case unknownParameter(filter: String, parameter: String, known: [String])
    case invalidValue(filter: String, parameter: String, value: Double, min: Double, max: Double)
    /// A choice's id (a string) for a numeric parameter.
    case notANumber(filter: String, parameter: String, value: ParameterValue)
    /// A value of a parameter of the choice kind that names none of its choices.
    case unknownChoice(filter: String, parameter: String, value: ParameterValue, known: [String])
    /// A chain of more than ``FilterChain/maximumLength`` links.
    case chainTooLong(count: Int, maximum: Int)
    /// `none` as a link of a longer chain (alone it is the empty chain).
    case noneInChain(index: Int, count: Int)
    /// Link `index` of a chain was refused for `error`.
    case inChain(index: Int, FilterError)
    /// A region other than `all` from a catalog that offers none (no person matte).
    case regionUnavailable(filter: String, region: FilterRegion)

    public var description: String {
        switch self {
        case .unknownFilter(let name, let known):
            "unknown filter '\(name)' (known: \(known.joined(separator: ", ")))"
        case .unknownParameter(let filter, let parameter, let known):
            known.isEmpty
                ? "filter '\(filter)' has no parameters, got '\(parameter)'"
                : "filter '\(filter)' has no parameter '\(parameter)' (known: \(known.joined(separator: ", ")))"
        case .invalidValue(let filter, let parameter, let value, let min, let max):
            "\(filter).\(parameter) must be a number in \(min.plainText)…\(max.plainText), got \(value.plainText)"
        case .notANumber(let filter, let parameter, let value):
            "\(filter).\(parameter) must be a number, got \(value)"
        case .unknownChoice(let filter, let parameter, let value, let known):
            "\(filter).\(parameter) must be one of \(known.map { "'\($0)'" }.joined(separator: ", ")) (or its index 0…\(known.count - 1)), got \(value)"
        case .chainTooLong(let count, let maximum):
            "a filter chain has at most \(maximum) filters, got \(count)"
        case .noneInChain(let index, let count):
            "'none' cannot be link \(index) of a chain of \(count) filters: send it alone for no filter"
        case .inChain(let index, let error):
            "chain link \(index): \(error)"
        case .regionUnavailable(let filter, let region):
            "\(filter) on the \(region) only needs the person matte, which this server does not offer: region 'all' only"
        }
    }
}
