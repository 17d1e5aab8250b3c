import CastProtocol

/// Where a viewer that asked for sound (`watch {audio: true}`) is in the sound's log: the next
/// packet due, the packets it skipped.
struct SoundCursor {
    /// The client asked for sound.
    private(set) var listening = false
    /// The last packet sent (0: none since it asked).
    private var lastSent: UInt64 = 0

    /// `watch.audio`: sound from now on (`true`), or none; nil leaves it as it is. True when that
    /// changed (the listeners changed). Refused, changing nothing, when the server sends no sound
    /// (`offered` false).
    mutating func listen(_ audio: Bool?, offered: Bool) throws(ProtocolError) -> Bool {
        guard let audio, audio != listening else { return false }
        if audio && !offered {
            throw ProtocolError(code: .outOfRange, message: "watch.audio: this server sends no sound (hello.audio is null: its FFmpeg has no Opus encoder, or --speed is not 1)")
        }
        listening = audio
        lastSent = 0
        return true
    }

    /// The next packet due in `log`: the one after the last sent, or — starting, or more than the
    /// log holds behind (its socket did not take the packets in time) — the newest.
    func due(in log: AccessUnitLog.Position?) -> UInt64? {
        guard listening, let log, log.latest > lastSent else { return nil }
        return lastSent == 0 || lastSent + 1 < log.oldest ? log.latest : lastSent + 1
    }

    /// Packet `sequence` was written; returns how many were skipped before it.
    mutating func sent(_ sequence: UInt64) -> UInt64 {
        defer { lastSent = sequence }
        return lastSent == 0 ? 0 : sequence - lastSent - 1
    }
}
