import FilterKit

/// The fields of one client command, read with the checks the protocol promises: a missing field
/// or one of the wrong type is `invalid_argument`, a value of the right type outside its range is
/// `out_of_range`, and every message names the field as `type.field` and says what is allowed.
/// Fields that are not asked for are ignored.
struct CommandFields {
    /// The command's `"type"`, which messages put in front of field names.
    let type: String
    let fields: [String: JSONValue]

    func string(_ key: String) throws(ProtocolError) -> String {
        let expected = "a string"
        let value = try required(key, expected)
        guard case .string(let text) = value else { throw invalidArgument(key, expected, got: value) }
        return text
    }

    /// ``string(_:)``, or nil when the field is absent.
    func optionalString(_ key: String) throws(ProtocolError) -> String? {
        fields[key] == nil ? nil : try string(key)
    }

    /// One of `choices` (a string); another string is out of range.
    func choice(_ key: String, of choices: [String]) throws(ProtocolError) -> String {
        let expected = "one of " + choices.map { "\"\($0)\"" }.joined(separator: ", ")
        let value = try required(key, expected)
        guard case .string(let text) = value else { throw invalidArgument(key, expected, got: value) }
        guard choices.contains(text) else { throw outOfRange(key, expected, got: value) }
        return text
    }

    /// An optional boolean: nil when absent.
    func boolean(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let flag) = value else { throw invalidArgument(key, "true or false", got: value) }
        return flag
    }

    /// A finite number ≥ `minimum`.
    func number(_ key: String, atLeast minimum: Double, _ expected: String) throws(ProtocolError) -> Double {
        let value = try required(key, expected)
        guard case .number(let number) = value else { throw invalidArgument(key, expected, got: value) }
        guard number.value.isFinite, number.value >= minimum else { throw outOfRange(key, expected, got: value) }
        return number.value
    }

    /// A whole number in `range`; a fraction is the wrong type, a whole number outside the range
    /// (however large) is out of range.
    func integer(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int {
        let expected = "an integer in \(range.lowerBound)…\(range.upperBound)"
        let value = try required(key, expected)
        guard case .number(let number) = value, number.value == number.value.rounded() else {
            throw invalidArgument(key, expected, got: value)
        }
        guard number.value >= Double(range.lowerBound), number.value <= Double(range.upperBound) else {
            throw outOfRange(key, expected, got: value)
        }
        return Int(number.value)
    }

    /// ``integer(_:in:)``, or nil when the field is absent.
    func optionalInteger(_ key: String, in range: ClosedRange<Int>) throws(ProtocolError) -> Int? {
        fields[key] == nil ? nil : try integer(key, in: range)
    }

    /// A whole number in 0…2^64 − 1, read exactly; anything else is the wrong type.
    func unsignedInteger(_ key: String) throws(ProtocolError) -> UInt64 {
        let expected = "an integer in 0…\(UInt64.max)"
        let value = try required(key, expected)
        guard case .number(let number) = value, let integer = number.unsignedInteger else {
            throw invalidArgument(key, expected, got: value)
        }
        return integer
    }

    /// An object of filter parameters: names to numbers, or to strings (a choice's id, for a
    /// parameter of the choice kind). Absent is empty unless `required`. Names, ranges and which
    /// parameters take choices are the catalog's to check.
    func parameters(_ key: String, required isRequired: Bool) throws(ProtocolError) -> [String: ParameterValue] {
        let expected = "an object of parameter names to numbers (or choice ids)"
        guard let value = fields[key] else {
            if isRequired { throw missing(key, expected) }
            return [:]
        }
        guard case .object(let entries) = value else { throw invalidArgument(key, expected, got: value) }
        var parameters: [String: ParameterValue] = [:]
        // In name order, so that of several bad values the same one is reported every time.
        for (name, entry) in entries.sorted(by: { $0.key < $1.key }) {
            switch entry {
            case .number(let number): parameters[name] = .number(number.value)
            case .string(let id): parameters[name] = .choice(id)
            default: throw invalidArgument("\(key).\(name)", "a number or a choice's id (a string)", got: entry)
            }
        }
        return parameters
    }

    func required(_ key: String, _ expected: String) throws(ProtocolError) -> JSONValue {
        guard let value = fields[key] else { throw missing(key, expected) }
        return value
    }

    func missing(_ key: String, _ expected: String) -> ProtocolError {
        ProtocolError(code: .invalidArgument, message: "\(type).\(key) is required: \(expected)")
    }

    /// `step`'s `frames`: a whole number of frames, −250…−1 or 1…250.
    func stepFrames() throws(ProtocolError) -> Int {
        let limit = SessionCommand.maximumStep
        let frames = try integer("frames", in: -limit...limit)
        guard frames != 0 else { throw outOfRange("frames", "-\(limit)…-1 or 1…\(limit)", got: try required("frames", "")) }
        return frames
    }

    func invalidArgument(_ key: String, _ expected: String, got value: JSONValue) -> ProtocolError {
        ProtocolError(code: .invalidArgument, message: "\(type).\(key) must be \(expected), got \(value.summary)")
    }

    func outOfRange(_ key: String, _ expected: String, got value: JSONValue) -> ProtocolError {
        ProtocolError(code: .outOfRange, message: "\(type).\(key) must be \(expected), got \(value.summary)")
    }
}
