/// A validated choice of filter and parameter values: a plain value that can be shared between
/// threads and compared. Every parameter of the filter has a value (defaults fill the gaps).
public struct FilterSettings: Sendable, Equatable, CustomStringConvertible {
    public let name: String
    /// Every parameter as a number; a parameter of the choice kind as its choice's index.
    public let values: [String: Double]
    /// Each parameter of the choice kind as its choice's id (empty for a filter without one).
    public let choices: [String: String]
    /// Where the link applies; `all` unless the catalog offers regions.
    public let region: FilterRegion

    /// The `none` filter.
    public static let none = FilterSettings(uncheckedName: "none", values: [:], choices: [:], region: .all)

    /// Validates `parameters` and `region` against the catalog entry for `name`.
    public init(name: String, parameters: [String: ParameterValue], region: FilterRegion = .all,
                catalog: FilterCatalog = .standard) throws(FilterError) {
        guard let descriptor = catalog.descriptor(named: name) else {
            throw .unknownFilter(name, known: catalog.names)
        }
        guard region == .all || catalog.regions != nil else {
            throw .regionUnavailable(filter: name, region: region)
        }
        for key in parameters.keys.sorted() where descriptor.parameter(named: key) == nil {
            throw .unknownParameter(filter: name, parameter: key, known: descriptor.params.map(\.name))
        }
        var values: [String: Double] = [:]
        var choices: [String: String] = [:]
        for parameter in descriptor.params {
            let value = parameters[parameter.name] ?? .number(parameter.default)
            if let options = parameter.choices {
                let choice = try parameter.validateChoice(value, among: options, filter: name)
                choices[parameter.name] = choice.id
                values[parameter.name] = Double(options.firstIndex(of: choice)!)
            } else {
                values[parameter.name] = try parameter.validate(value, filter: name)
            }
        }
        // `none` is no filter anywhere: on a region it is the same empty chain.
        self.init(uncheckedName: name, values: values, choices: choices, region: name == Self.none.name ? .all : region)
    }

    /// Validates numeric `parameters` (a choice's index for a parameter of the choice kind).
    /// Disfavoured, so that a literal of numbers takes the other form, which means the same.
    @_disfavoredOverload
    public init(name: String, parameters: [String: Double] = [:],
                catalog: FilterCatalog = .standard) throws(FilterError) {
        try self.init(name: name, parameters: parameters.mapValues(ParameterValue.number), catalog: catalog)
    }

    private init(uncheckedName name: String, values: [String: Double], choices: [String: String], region: FilterRegion) {
        self.name = name
        self.values = values
        self.choices = choices
        self.region = region
    }

    /// The values as a client would send them: choices by id, the others as numbers.
    public var parameters: [String: ParameterValue] {
        values.mapValues(ParameterValue.number).merging(choices.mapValues(ParameterValue.choice)) { $1 }
    }

    /// A parameter's value; the filter's own code asks only for parameters it declares.
    public subscript(_ parameter: String) -> Double {
        guard let value = values[parameter] else { preconditionFailure("\(name) has no parameter \(parameter)") }
        return value
    }

    /// The id of the choice of a parameter of the choice kind the filter declares.
    public func choice(_ parameter: String) -> String {
        guard let id = choices[parameter] else { preconditionFailure("\(name) has no choice parameter \(parameter)") }
        return id
    }

    public var description: String {
        let link = values.isEmpty ? name : "\(name)(" + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") + ")"
        return region == .all ? link : "\(link) on \(region)"
    }
}
