/// How fast the shared playhead moves (`speed`, v1 addition): `value` seconds of the source a
/// second, 0.25…4 forward or −4…−0.25 backward; 1 is real time. Pure: which rates exist and
/// which of them keep their sound, decided here alone.
public struct PlaybackRate: Sendable, Equatable {
    /// The slowest and the fastest rate either way.
    public static let slowest = 0.25
    public static let fastest = 4.0
    /// Forward rates whose sound plays, its pitch kept (libavfilter's `atempo`); outside it, and
    /// backward, the sound is silent.
    public static let soundRange: ClosedRange<Double> = 0.5...2
    /// The rates allowed, as refusals name them.
    public static let allowed = "-4…-0.25 or 0.25…4"
    /// Real time.
    public static let normal = PlaybackRate(checked: 1)

    /// Seconds of the source a second of wall clock; negative backward.
    public let value: Double

    /// `value` when it is an allowed rate, else nil (0, NaN, beyond ±4, within ±0.25).
    public init?(_ value: Double) {
        guard value.isFinite, (Self.slowest...Self.fastest).contains(abs(value)) else { return nil }
        self.value = value
    }

    private init(checked value: Double) { self.value = value }

    /// The playhead moves backward.
    public var isReverse: Bool { value < 0 }

    /// Whether the sound plays at this rate (pitch kept).
    public var hasSound: Bool { Self.soundRange.contains(value) }

    /// Why the sound is silent at this rate; nil when it plays.
    public var silenceReason: String? {
        if hasSound { return nil }
        if isReverse { return "no sound while playing backward" }
        return "no sound at \(Self.describe(value))× (sound plays from 0.5× to 2× forward)"
    }

    /// `value` as a short number: 2, 0.5, -0.25.
    public static func describe(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
