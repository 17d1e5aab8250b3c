/// A validated choice of filter and parameter values: a plain value that can be shared between
/// threads and compared. Every parameter of the filter has a value (defaults fill the gaps).
public struct FilterSettings: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    public let values: [String: Double]

    /// The `none` filter.
    public static let none = FilterSettings(uncheckedName: "none", values: [:])

    /// Validates `parameters` against the catalog entry for `name`.
    public init(name: String, parameters: [String: Double] = [:],
                catalog: FilterCatalog = .standard) throws(FilterError) {
        guard let descriptor = catalog.descriptor(named: name) else {
            throw .unknownFilter(name, known: catalog.names)
        }
        for key in parameters.keys.sorted() where descriptor.parameter(named: key) == nil {
            throw .unknownParameter(filter: name, parameter: key, known: descriptor.params.map(\.name))
        }
        var values: [String: Double] = [:]
        for parameter in descriptor.params {
            values[parameter.name] = try parameter.validate(parameters[parameter.name] ?? parameter.default, filter: name)
        }
        self.init(uncheckedName: name, values: values)
    }

    private init(uncheckedName name: String, values: [String: Double]) {
        self.name = name
        self.values = values
    }

    /// A parameter's value; the filter's own code asks only for parameters it declares.
    public subscript(_ parameter: String) -> Double {
        guard let value = values[parameter] else { preconditionFailure("\(name) has no parameter \(parameter)") }
        return value
    }

    public var description: String {
        values.isEmpty ? name : "\(name)(" + values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.plainText)" }.joined(separator: ", ") + ")"
    }
}
