/// A damaged stream: packets and pictures the decoder refuses or conceals are skipped with a warning
/// (at most one a second, ``WarningRateLimit``), a live input given up after a long run of them.
extension Decoder {
    /// Skips what the decoder refused (`code`, at `place` for the message); throws when the read
    /// was interrupted, or after 500 refusals in a row on a live input.
    func skipCorrupt(_ code: Int32, at place: String) throws(MediaError) {
        // An interrupted read cuts packets short: that is the interruption, not a damaged file.
        if interruption.isRequested { throw .readFailed(input: input, reason: "the read was interrupted") }
        corruptPackets += 1
        if corruptPackets > 500 && limitsCorruption {
            throw .readFailed(input: input, reason: "too many corrupt packets in a row (\(averrorDescription(code)))")
        }
        warn("skipping corrupt \(place): \(averrorDescription(code))")
    }

    func warn(_ message: String) {
        guard let held = warnings.admit(at: .now) else { return }
        let suppressed = held > 0 ? " (and \(held) more since the last warning)" : ""
        onWarning("\(input): \(message)\(suppressed)")
    }

    /// Seconds rounded to milliseconds, for messages.
    func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() / 1000 }
}
