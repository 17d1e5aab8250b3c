/// Whether a sharer keeps within ``IngestLimits``: bytes (pictures and sound together), pictures
/// and sound packets over the last two seconds. Pure, driven by the clock it is given.
struct IngestBudget {
    static let window = Duration.seconds(2)
    let limits: IngestLimits
    private var recent: [(at: ContinuousClock.Instant, bytes: Int, isSound: Bool)] = []
    private var bytes = 0
    private var soundPackets = 0

    init(_ limits: IngestLimits) { self.limits = limits }

    /// Counts a message of `size` bytes at `now` — a picture, or a microphone packet when
    /// `isSound`; why it breaks the limits, or nil.
    mutating func spend(_ size: Int, isSound: Bool = false, at now: ContinuousClock.Instant) -> String? {
        recent.append((now, size, isSound))
        bytes += size
        if isSound { soundPackets += 1 }
        while let first = recent.first, first.at.duration(to: now) > Self.window {
            bytes -= first.bytes
            if first.isSound { soundPackets -= 1 }
            recent.removeFirst()
        }
        let seconds = Self.window.seconds
        if Double(bytes * 8) > Double(limits.bitsPerSecond) * seconds {
            return "the camera sends over \(limits.bitsPerSecond / 1000) kbit/s (--max-ingest-bitrate)"
        }
        if Double(recent.count - soundPackets) > Double(limits.framesPerSecond) * seconds {
            return "the camera sends over \(limits.framesPerSecond) pictures a second"
        }
        if Double(soundPackets) > Double(IngestLimits.soundPacketsPerSecond) * seconds {
            return "the microphone sends over \(IngestLimits.soundPacketsPerSecond) packets a second"
        }
        return nil
    }
}
