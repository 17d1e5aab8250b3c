/// The fields of the review-playback commands: `speed` and `loop` (v1 additions).
extension CommandFields {
    /// `speed`'s `rate`: a number in −4…−0.25 or 0.25…4 (``PlaybackRate``).
    func playbackRate() throws(ProtocolError) -> PlaybackRate {
        let expected = "a number in \(PlaybackRate.allowed)"
        let value = try required("rate", expected)
        guard case .number(let number) = value else { throw invalidArgument("rate", expected, got: value) }
        guard let rate = PlaybackRate(number.value) else { throw outOfRange("rate", expected, got: value) }
        return rate
    }

    /// `loop`'s `in` and `out` (seconds, `in` < `out`), or nil for `"in": null` (the loop ends).
    func loopRange() throws(ProtocolError) -> LoopRange? {
        if case .null = try required("in", "a number of seconds ≥ 0, or null to end the loop") { return nil }
        let start = try number("in", atLeast: 0, "a finite number of seconds ≥ 0, or null to end the loop")
        let expected = "a finite number of seconds after loop.in (\(start))"
        let end = try number("out", atLeast: 0, expected)
        guard let range = LoopRange(in: start, out: end) else { throw outOfRange("out", expected, got: try required("out", expected)) }
        return range
    }
}
