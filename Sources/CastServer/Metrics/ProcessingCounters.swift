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
    /// The program chain's style refresh rate (``FilterKit/FilterRunner/refreshRate``) in
    /// thousandths of a hertz; -1 while no link paints beside the frame path or none was measured.
    let styleRefreshMillihertz = Gauge(-1)

    /// ``styleRefreshMillihertz`` in hertz, nil for none (`state.styleRefreshHz`).
    var styleRefreshHz: Double? {
        let value = styleRefreshMillihertz.value
        return value < 0 ? nil : Double(value) / 1000
    }
    let encodeTime = Histogram(bounds: Histogram.frameTimeBounds)
}
