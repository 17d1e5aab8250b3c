/// The in/out loop (`loop`, v1 addition): playback wraps from `out` back to `in`, both seconds of
/// the source, `in` < `out`. Pure: the parser checks the numbers (``init(in:out:)``), the session
/// the source's length (``checked(within:)``) and where a seek lands (``contains(_:)``).
public struct LoopRange: Sendable, Equatable, Encodable {
    /// Seconds: the first frame at or after it is where the loop starts again.
    public let `in`: Double
    /// Seconds: the last frame at or before it is the loop's last.
    public let out: Double

    /// Finite, ≥ 0, `in` < `out`; else nil (the parser says which field is wrong).
    public init?(in start: Double, out end: Double) {
        guard start.isFinite, start >= 0, end.isFinite, end > start else { return nil }
        self.in = start
        self.out = end
    }

    /// The range itself when `out` is within a source of `duration` seconds (nil: unknown, any
    /// is); else `out_of_range` naming the source's length.
    public func checked(within duration: Double?) throws(ProtocolError) -> LoopRange {
        guard let duration, duration.isFinite else { return self }
        // A playhead at the last frame may read a hair past the declared length.
        guard out <= duration + Self.slack else {
            throw ProtocolError(code: .outOfRange, message: "loop.out must be within the source (0…\(duration) s), got \(out)")
        }
        return self
    }

    /// Whether a playhead at `seconds` is inside the loop (its ends included, within a
    /// millisecond: positions come from frame times).
    public func contains(_ seconds: Double) -> Bool {
        seconds >= `in` - Self.slack && seconds <= out + Self.slack
    }

    /// Times closer than this are the same frame's.
    static let slack = 0.001
}
