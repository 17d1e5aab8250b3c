extension Double {
    /// The number as people write it: `5` for a whole number (never `5.0`), `0.45`, `-3.5`.
    public var plainText: String {
        self == rounded() && Swift.abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
