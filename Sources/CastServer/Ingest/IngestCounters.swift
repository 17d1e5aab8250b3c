import Telemetry

/// What shared cameras sent (`/metrics`).
struct IngestCounters: Sendable {
    /// Picture messages taken from sharers.
    let pictures = Counter()
    /// Their bytes, headers included.
    let bytes = Counter()
    /// Microphone packets taken (their bytes count in `bytes`).
    let soundPackets = Counter()
    /// Pictures dropped: the decoder behind, or H.264 waiting for a keyframe.
    let dropped = Counter()
}
