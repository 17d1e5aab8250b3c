extension Metrics {
    /// The content type of `exposition()`.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// Every registered metric in the Prometheus text format: per family `# HELP` and `# TYPE`,
    /// then one line per sample (`name{label="value"} number`); histograms as cumulative
    /// `_bucket{le="…"}` lines ending with `le="+Inf"`, then `_sum` and `_count`.
    public func exposition() -> String {
        var text = ""
        for family in registered {
            text += "# HELP \(family.name) \(Self.escapedHelp(family.help))\n# TYPE \(family.name) \(family.kind.rawValue)\n"
            for sample in family.samples {
                switch sample.source {
                case .counter(let counter):
                    text += line(family.name, sample.labels, String(counter.value))
                case .gauge(let gauge):
                    text += line(family.name, sample.labels, String(gauge.value))
                case .sampled(let read):
                    text += line(family.name, sample.labels, String(read()))
                case .histogram(let histogram):
                    let snapshot = histogram.snapshot
                    for bucket in snapshot.buckets {
                        text += line(family.name + "_bucket", sample.labels + [("le", Self.number(bucket.bound))],
                                     String(bucket.count))
                    }
                    text += line(family.name + "_sum", sample.labels, Self.number(snapshot.sum))
                    text += line(family.name + "_count", sample.labels, String(snapshot.count))
                }
            }
        }
        return text
    }

    private func line(_ name: String, _ labels: [(name: String, value: String)], _ value: String) -> String {
        guard !labels.isEmpty else { return "\(name) \(value)\n" }
        let rendered = labels.map { "\($0.name)=\"\(Self.escapedLabel($0.value))\"" }.joined(separator: ",")
        return "\(name){\(rendered)} \(value)\n"
    }

    /// Go's float syntax, which Prometheus parses: `+Inf`, `-Inf`, `NaN`, or Swift's shortest form.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        return String(value)
    }

    /// HELP text escapes backslash and newline.
    static func escapedHelp(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
    }

    /// Label values escape backslash, double quote and newline.
    static func escapedLabel(_ text: String) -> String {
        escapedHelp(text).replacing("\"", with: "\\\"")
    }
}
