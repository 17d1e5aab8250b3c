import Telemetry

/// What the network thread counts, for /metrics.
package struct TransportCounters: Sendable {
    package init() {}

    /// Frames written to WebSocket viewers and MJPEG readers.
    let framesSent = Counter()
    /// Payload bytes written: frames, MJPEG parts, text messages and HTTP bodies.
    package let bytesSent = Counter()
    /// Frames a client did not get because it was still busy with an earlier one (flow-control
    /// window full, socket choked), counted per client.
    let droppedSlowClient = Counter()
    /// Viewers moved to a smaller or a larger rendition by their delivery.
    let switchesDown = Counter()
    let switchesUp = Counter()
    /// Sound packets written to listeners (one per listener), and those a listener skipped
    /// because it was more than the sound's log behind.
    let audioSent = Counter()
    let audioSkipped = Counter()
    let viewers = Gauge()
    /// How uploads ended (registered only with `--uploads`).
    let uploads = UploadCounters()
    let mjpegReaders = Gauge()
}
