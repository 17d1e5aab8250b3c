/// Registers into a ``Metrics`` registry with labels of its own first on every sample: a
/// channel's stages register through `metrics.scoped(["channel": NAME])`, and
/// `metrics.remove(label: "channel", value: NAME)` takes them out again. A value; any thread.
public struct MetricsScope: Sendable {
    let metrics: Metrics
    /// The labels every sample registered here carries, before its own.
    let labels: [(name: String, value: String)]

    /// Registers `counter`; `name` must end in `_total`.
    public func register(_ counter: Counter, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        precondition(name.hasSuffix("_total"), "counter names end in _total: \(name)")
        metrics.add(name, help, .counter, with(labels), .counter(counter))
    }

    public func register(_ gauge: Gauge, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        metrics.add(name, help, .gauge, with(labels), .gauge(gauge))
    }

    /// A gauge whose value `read` gives at each scrape (state that another owner keeps).
    public func registerGauge(name: String, help: String, labels: KeyValuePairs<String, String> = [:],
                              read: @escaping @Sendable () -> Int) {
        metrics.add(name, help, .gauge, with(labels), .sampled(read))
    }

    /// Registers `histogram`; `name` should end in the unit (`_seconds`).
    public func register(_ histogram: Histogram, name: String, help: String, labels: KeyValuePairs<String, String> = [:]) {
        metrics.add(name, help, .histogram, with(labels), .histogram(histogram))
    }

    private func with(_ own: KeyValuePairs<String, String>) -> [(name: String, value: String)] {
        labels + own.map { ($0.key, $0.value) }
    }
}
