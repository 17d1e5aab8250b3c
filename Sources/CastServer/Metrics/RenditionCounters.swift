import Telemetry

/// What one rendition counts and times, for /metrics (labelled with its id).
struct RenditionCounters: Sendable {
    let framesEncoded = Counter()
    let bytesEncoded = Counter()
    let keyframes = Counter()
    let encodeTime = Histogram(bounds: Histogram.frameTimeBounds)
    /// Viewers on it now.
    let viewers = Gauge()
}
