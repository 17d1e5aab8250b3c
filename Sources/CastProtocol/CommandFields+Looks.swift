import FilterKit

extension CommandFields {
    /// `saveLook {name, from}`: the chain `from` names (default the program) saved as `name`.
    func saveLook() throws(ProtocolError) -> SessionCommand {
        .saveLook(name: try lookName(), from: try chainTarget("from"))
    }

    /// `deleteLook {name}`.
    func deleteLook() throws(ProtocolError) -> SessionCommand {
        .deleteLook(name: try lookName())
    }

    /// `setFilter {look, to}`: the saved look `look` applied to the chain `to` names (default the
    /// program); `look` with `name`, `params` or `chain` is refused rather than guessed at.
    func applyLook() throws(ProtocolError) -> SessionCommand {
        for key in ["name", "params", "chain"] where fields[key] != nil {
            throw ProtocolError(code: .invalidArgument,
                                message: "\(type) takes a look, or name (+params), or chain: not look with \(type).\(key)")
        }
        return .applyLook(name: try lookName("look"), to: try chainTarget("to"))
    }

    /// A look's name (the rule of ``Look/isValidName(_:)``).
    private func lookName(_ key: String = "name") throws(ProtocolError) -> String {
        let expected = "a look's name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -"
        let value = try required(key, expected)
        guard case .string(let name) = value else { throw invalidArgument(key, expected, got: value) }
        guard Look.isValidName(name) else { throw outOfRange(key, expected, got: value) }
        return name
    }
}
