/// One filter parameter, described as data the way `CIFilter.attributes` does, so that a page
/// can build a slider for it and the server can validate what clients send.
public struct ParameterDescriptor: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// Any real number in range.
        case number
        /// Rounded to the nearest whole number.
        case integer
        /// Radians.
        case angle
    }

    public let name: String
    public let label: String
    public let type: Kind
    /// The value a filter starts with when it is picked. Together a filter's defaults change a
    /// picture visibly (a filter that looked like "None" when picked would seem broken); the
    /// value that changes nothing is `identity`.
    public let `default`: Double
    /// Hard range: values outside it are rejected.
    public let min: Double
    public let max: Double
    /// The range a slider shows by default (within the hard range).
    public let sliderMin: Double
    public let sliderMax: Double
    public let step: Double
    /// The value at which the parameter has no effect, if there is one.
    public let identity: Double?
    /// For a parameter of the choice kind (``choice(name:label:choices:default:)``), its options in
    /// picker order; nil for a numeric parameter.
    public let choices: [Choice]?

    public init(name: String, label: String, type: Kind = .number, default defaultValue: Double,
                min: Double, max: Double, sliderMin: Double? = nil, sliderMax: Double? = nil,
                step: Double, identity: Double? = nil, choices: [Choice]? = nil) {
        precondition(min <= defaultValue && defaultValue <= max, "\(name): default outside range")
        self.name = name
        self.label = label
        self.type = type
        self.default = defaultValue
        self.min = min
        self.max = max
        self.sliderMin = sliderMin ?? min
        self.sliderMax = sliderMax ?? max
        self.step = step
        self.identity = identity
        self.choices = choices
    }

    /// `value` checked as a number: against the hard range (and rounded for integers). A choice's id
    /// is not a number here (a parameter of the choice kind is checked by ``validateChoice(_:among:filter:)``).
    public func validate(_ value: ParameterValue, filter: String) throws(FilterError) -> Double {
        guard case .number(let number) = value else {
            throw .notANumber(filter: filter, parameter: name, value: value)
        }
        return try validate(number, filter: filter)
    }

    /// `value` checked against the hard range (and rounded for integers).
    public func validate(_ value: Double, filter: String) throws(FilterError) -> Double {
        guard value.isFinite else {
            throw .invalidValue(filter: filter, parameter: name, value: value, min: min, max: max)
        }
        let result = type == .integer ? value.rounded() : value
        guard result >= min && result <= max else {
            throw .invalidValue(filter: filter, parameter: name, value: value, min: min, max: max)
        }
        return result
    }

    private enum ChoiceKeys: String, CodingKey {
        case kind
    }

    // Encodes `identity: null` explicitly, so that every numeric parameter object has the same keys;
    // a choice parameter has those and `kind` and `choices`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(label, forKey: .label)
        try container.encode(type, forKey: .type)
        try container.encode(self.default, forKey: .default)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(sliderMin, forKey: .sliderMin)
        try container.encode(sliderMax, forKey: .sliderMax)
        try container.encode(step, forKey: .step)
        try container.encode(identity, forKey: .identity)
        if let choices {
            try container.encode(choices, forKey: .choices)
            var kind = encoder.container(keyedBy: ChoiceKeys.self)
            try kind.encode("choice", forKey: .kind)
        }
    }
}
