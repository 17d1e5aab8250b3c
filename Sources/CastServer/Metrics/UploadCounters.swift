import Telemetry

/// How uploads ended, for `filtercast_uploads_total{result}` (service thread counts; any
/// thread reads).
struct UploadCounters: Sendable {
    enum Result: String, CaseIterable, Sendable {
        /// Probed as a video and stored.
        case accepted
        /// Probed and found not to be a playable video (415).
        case notVideo = "not_video"
        /// Refused before the body: name, size, disk, token, origin, too many at once.
        case refused
        /// Admitted but not stored: the disk refused it.
        case failed
        /// The client closed the connection (or stalled) before the whole body came.
        case cutShort = "cut_short"
        /// The client left while its upload was probed.
        case abandoned
    }

    let counters = Dictionary(uniqueKeysWithValues: Result.allCases.map { ($0, Counter()) })

    func count(_ result: Result) { counters[result]!.increment() }

    func register(in metrics: Metrics) {
        for result in Result.allCases {
            metrics.register(counters[result]!, name: "filtercast_uploads_total",
                             help: "Uploads by how they ended: accepted, not_video, refused (before the body), "
                                 + "failed (not written), cut_short, abandoned (the client left during the probe).",
                             labels: ["result": result.rawValue])
        }
    }
}
