/// The review room's commands: `name`, `present` and `point` (v1 additions).
extension CommandFields {
    /// `name.name`: a display name (``PersonName``).
    func personName() throws(ProtocolError) -> String {
        try PersonName.validated(try string("name"), field: "\(type).name")
    }

    /// `present`: `action` take or release, `force` (take from another presenter; admin only).
    func presentation() throws(ProtocolError) -> SessionCommand {
        let take = try choice("action", of: ["take", "release"]) == "take"
        return .present(take: take, force: try boolean("force") ?? false)
    }

    /// `point`: `x` and `y` both in 0…1, or both null (or absent): the pointer hides.
    func pointerPosition() throws(ProtocolError) -> PointerPosition? {
        let hidden: (JSONValue?) -> Bool = { value in
            if case .null = value { return true }
            return value == nil
        }
        if hidden(fields["x"]) && hidden(fields["y"]) { return nil }
        return PointerPosition(x: try unitNumber("x"), y: try unitNumber("y"))
    }

    /// A number in 0…1.
    private func unitNumber(_ key: String) throws(ProtocolError) -> Double {
        let expected = "a number in 0…1 (or null with the other, to hide the pointer)"
        let value = try required(key, expected)
        guard case .number(let number) = value else { throw invalidArgument(key, expected, got: value) }
        guard number.value.isFinite, (0...1).contains(number.value) else { throw outOfRange(key, expected, got: value) }
        return number.value
    }
}
