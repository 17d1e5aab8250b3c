extension ParameterDescriptor {
    /// One option of a parameter of the choice kind: what clients send (`id`), what a picker shows
    /// (`label`, and a small picture at the URL `thumbnail`).
    public struct Choice: Sendable, Codable, Equatable {
        public let id: String
        public let label: String
        public let thumbnail: String

        public init(id: String, label: String, thumbnail: String) {
            self.id = id
            self.label = label
            self.thumbnail = thumbnail
        }
    }

    /// A parameter that takes one of `choices` (`"kind": "choice"`), `defaultID` at first. So that a
    /// client that knows only numeric parameters keeps working, it is also an integer parameter
    /// over the choices' indexes (0…count − 1, the default's index as `default`): such a client
    /// shows a slider and sends indexes, which are taken as the choice at that index.
    public static func choice(name: String, label: String, choices: [Choice], default defaultID: String) -> ParameterDescriptor {
        guard let index = choices.firstIndex(where: { $0.id == defaultID }) else {
            preconditionFailure("\(name): the default '\(defaultID)' is not a choice")
        }
        precondition(Set(choices.map(\.id)).count == choices.count, "\(name): choice ids repeat")
        return ParameterDescriptor(name: name, label: label, type: .integer, default: Double(index), min: 0,
                                   max: Double(choices.count - 1), step: 1, choices: choices)
    }

    /// The choice a value names: an id, or (from a numeric client) an index, rounded. Anything else is
    /// refused naming the choices.
    func validateChoice(_ value: ParameterValue, among choices: [Choice], filter: String) throws(FilterError) -> Choice {
        switch value {
        case .choice(let id):
            if let choice = choices.first(where: { $0.id == id }) { return choice }
        case .number(let number):
            let index = number.isFinite ? number.rounded() : -1
            if index >= 0 && index < Double(choices.count) { return choices[Int(index)] }
        }
        throw .unknownChoice(filter: filter, parameter: name, value: value, known: choices.map(\.id))
    }
}
