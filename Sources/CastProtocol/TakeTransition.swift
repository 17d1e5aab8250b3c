/// How `take` puts the preview chain on air: at once (`cut`), or by cross-fading every viewer's
/// program from the old chain to the new one over `seconds`.
public enum TakeTransition: Sendable, Equatable {
    case cut
    /// `seconds` in ``fadeDurations``.
    case fade(seconds: Double)

    /// The durations a fade may last, in seconds.
    public static let fadeDurations: ClosedRange<Double> = 0.1...5
    /// A fade's duration when `take` gives none, in seconds.
    public static let defaultFadeSeconds = 1.0
}

extension CommandFields {
    /// `take`'s fields: `transition` (`"cut"`, the default, or `"fade"`) and, for a fade only,
    /// `duration` (seconds, 0.1…5, default 1). A duration beside a cut is refused rather than ignored.
    func takeTransition() throws(ProtocolError) -> TakeTransition {
        let transition = fields["transition"] == nil ? "cut" : try choice("transition", of: ["cut", "fade"])
        guard transition == "fade" else {
            guard fields["duration"] == nil else {
                throw ProtocolError(code: .invalidArgument,
                                    message: "\(type).duration applies to a fade only: give \"transition\": \"fade\" with it")
            }
            return .cut
        }
        guard fields["duration"] != nil else { return .fade(seconds: TakeTransition.defaultFadeSeconds) }
        let range = TakeTransition.fadeDurations
        let expected = "a number of seconds in \(range.lowerBound)…\(Int(range.upperBound))"
        let seconds = try number("duration", atLeast: range.lowerBound, expected)
        guard seconds <= range.upperBound else { throw outOfRange("duration", expected, got: fields["duration"]!) }
        return .fade(seconds: seconds)
    }
}
