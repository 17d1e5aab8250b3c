extension Duration {
    /// This duration in seconds, as a Double.
    public var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) * 1e-18
    }
}

extension Duration {
    /// Seconds for messages: `10`, `2.5` (whole seconds without a fraction).
    public var secondsText: String { seconds.plainText }
}

extension Duration {
    /// The time between two frames at `rate` frames a second (at least one a second).
    public static func frameInterval(perSecond rate: Double) -> Duration {
        .nanoseconds(Int64(1e9 / max(rate, 1)))
    }
}
