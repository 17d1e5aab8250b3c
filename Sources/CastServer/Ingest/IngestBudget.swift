/// Whether a sharer keeps within ``IngestLimits``: bytes and pictures over the last two
/// seconds. Pure, driven by the clock it is given.
struct IngestBudget {
    static let window = Duration.seconds(2)
    let limits: IngestLimits
    private var recent: [(at: ContinuousClock.Instant, bytes: Int)] = []
    private var bytes = 0

    init(_ limits: IngestLimits) { self.limits = limits }

    /// Counts a picture of `size` bytes at `now`; why it breaks the limits, or nil.
    mutating func spend(_ size: Int, at now: ContinuousClock.Instant) -> String? {
        recent.append((now, size))
        bytes += size
        while let first = recent.first, first.at.duration(to: now) > Self.window {
            bytes -= first.bytes
            recent.removeFirst()
        }
        let seconds = Self.window.seconds
        if Double(bytes * 8) > Double(limits.bitsPerSecond) * seconds {
            return "the camera sends over \(limits.bitsPerSecond / 1000) kbit/s (--max-ingest-bitrate)"
        }
        if Double(recent.count) > Double(limits.framesPerSecond) * seconds {
            return "the camera sends over \(limits.framesPerSecond) pictures a second"
        }
        return nil
    }
}
