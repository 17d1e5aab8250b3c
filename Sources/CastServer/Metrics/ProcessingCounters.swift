import Telemetry

/// What the processing thread counts and times, for /metrics.
struct ProcessingCounters: Sendable {
    let framesFiltered = Counter()
    let framesEncoded = Counter()
    /// Frames taken from the player and not encoded, by reason.
    let droppedNoViewers = Counter()
    let droppedMaxFPS = Counter()
    let droppedEncodeFailed = Counter()
    /// Preview frames (studio mode) not made because the next source frame already waited.
    let droppedPreviewLate = Counter()
    let filterTime = Histogram(bounds: Histogram.frameTimeBounds)
    let encodeTime = Histogram(bounds: Histogram.frameTimeBounds)
}
