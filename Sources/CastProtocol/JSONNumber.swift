/// A JSON number, kept as its literal so that whole numbers up to 2^64 − 1 (frame sequence
/// numbers) are read exactly rather than through a `Double`.
struct JSONNumber: Equatable {
    /// The literal as written; it matches the JSON number grammar.
    let literal: String
    /// The nearest `Double`: ±infinity when the magnitude is beyond `Double`'s range.
    let value: Double

    init(literal: String) {
        self.literal = literal
        // Every JSON number literal is a valid Double literal, so this never falls back.
        value = Double(literal) ?? .nan
    }

    /// The number when it is a whole number in 0…`UInt64.max`, however it is written
    /// (`42`, `42.0`, `4.2e1`).
    var unsignedInteger: UInt64? {
        if let exact = UInt64(literal) { return exact }
        let twoToThe64 = 18_446_744_073_709_551_616.0
        guard value == value.rounded(), value >= 0, value < twoToThe64 else { return nil }
        return UInt64(value)
    }
}
