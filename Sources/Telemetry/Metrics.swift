import Synchronization

/// The registry behind `GET /metrics`: the counters, gauges and histograms that the components
/// own, each registered once under a Prometheus name, rendered in the text exposition format
/// (version 0.0.4).
///
/// Several metrics may share a name with different labels (`frames_dropped_total{reason=…}`);
/// they are rendered as one family under one `# HELP` and `# TYPE`.
public final class Metrics: Sendable {
    enum Kind: String, Sendable {
        case counter, gauge, histogram
    }

    enum Source: Sendable {
        case counter(Counter)
        case gauge(Gauge)
        /// Read at each scrape.
        case sampled(@Sendable () -> Int)
        case histogram(Histogram)
    }

    struct Sample: Sendable {
        let labels: [(name: String, value: String)]
        let source: Source
    }

    struct Family: Sendable {
        let name: String
        let help: String
        let kind: Kind
        var samples: [Sample]
    }

    private let families = Mutex<[Family]>([])

    public init() {}

    /// Registers `counter`; `name` must end in `_total`.
    public func register(_ counter: Counter, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        scoped().register(counter, name: name, help: help, labels: labels)
    }

    public func register(_ gauge: Gauge, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        scoped().register(gauge, name: name, help: help, labels: labels)
    }

    /// A gauge whose value `read` gives at each scrape (state that another owner keeps).
    public func registerGauge(name: String, help: String, labels: KeyValuePairs<String, String> = [:],
                              read: @escaping @Sendable () -> Int) {
        scoped().registerGauge(name: name, help: help, labels: labels, read: read)
    }

    /// Registers `histogram`; `name` should end in the unit (`_seconds`).
    public func register(_ histogram: Histogram, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        scoped().register(histogram, name: name, help: help, labels: labels)
    }

    /// What registers through this registry with `labels` first on every sample (`channel`).
    public func scoped(_ labels: KeyValuePairs<String, String> = [:]) -> MetricsScope {
        MetricsScope(metrics: self, labels: labels.map { ($0.key, $0.value) })
    }

    /// Takes out every sample labelled `label="value"` (a channel removed), and the families left
    /// without samples. Any thread.
    public func remove(label: String, value: String) {
        families.withLock { families in
            for index in families.indices {
                families[index].samples.removeAll { $0.labels.contains { $0.name == label && $0.value == value } }
            }
            families.removeAll { $0.samples.isEmpty }
        }
    }

    func add(_ name: String, _ help: String, _ kind: Kind, _ labels: [(name: String, value: String)], _ source: Source) {
        precondition(Self.isValidName(name, allowingColons: true), "not a metric name: \(name)")
        precondition(labels.allSatisfy { Self.isValidName($0.name, allowingColons: false) && $0.name != "le" },
                     "bad label name in \(name)")
        let sample = Sample(labels: labels, source: source)
        families.withLock { families in
            if let index = families.firstIndex(where: { $0.name == name }) {
                precondition(families[index].kind == kind, "\(name) registered as two kinds")
                families[index].samples.append(sample)
            } else {
                families.append(Family(name: name, help: help, kind: kind, samples: [sample]))
            }
        }
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*` (no colons in label names).
    static func isValidName(_ name: String, allowingColons: Bool) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
                || (allowingColons && $0 == ":")
        }
    }

    var registered: [Family] { families.withLock { $0 } }
}
