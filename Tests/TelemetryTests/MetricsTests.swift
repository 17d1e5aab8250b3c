import Foundation
import Testing
@testable import Telemetry

/// The registry renders what the components counted in the Prometheus text format, checked by
/// parsing it back.
@Suite struct MetricsTests {
    @Test func countersGaugesAndLabelledFamiliesRoundTrip() throws {
        let metrics = Metrics()
        let decoded = Counter(), superseded = Counter(), slow = Counter(), viewers = Gauge(), online = Gauge(1)
        metrics.register(decoded, name: "fc_frames_decoded_total", help: "Frames decoded.")
        metrics.register(superseded, name: "fc_dropped_total", help: "Drops \\ by reason\nsecond line.",
                         labels: ["reason": "superseded"])
        metrics.register(slow, name: "fc_dropped_total", help: "ignored", labels: ["reason": #"slow "client"\ \#n"#])
        metrics.register(viewers, name: "fc_viewers", help: "Viewers.")
        metrics.registerGauge(name: "fc_online", help: "Sampled.") { online.value * 2 }
        decoded.increment(by: 41)
        decoded.increment()
        superseded.increment(by: 3)
        slow.increment(by: 5)
        viewers.set(7)
        viewers.set(4)

        let text = metrics.exposition()
        let parsed = try Exposition(parsing: text)
        #expect(parsed.value("fc_frames_decoded_total") == 42)
        #expect(parsed.value("fc_dropped_total", ["reason": "superseded"]) == 3)
        #expect(parsed.value("fc_dropped_total", ["reason": "slow \"client\"\\ \n"]) == 5)
        #expect(parsed.value("fc_viewers") == 4)
        #expect(parsed.value("fc_online") == 2)
        #expect(parsed.help["fc_dropped_total"] == "Drops \\ by reason\nsecond line.")
        #expect(parsed.types == ["fc_frames_decoded_total": "counter", "fc_dropped_total": "counter",
                                 "fc_viewers": "gauge", "fc_online": "gauge"])
        #expect(parsed.samples.count == 5)
        // One HELP and TYPE per family, right before its samples.
        let lines = text.split(separator: "\n")
        let family = try #require(lines.firstIndex(of: "# TYPE fc_dropped_total counter"))
        #expect(lines[family - 1].hasPrefix("# HELP fc_dropped_total "))
        #expect(lines[family + 1].hasPrefix("fc_dropped_total{") && lines[family + 2].hasPrefix("fc_dropped_total{"))
    }

    @Test func aScopesLabelsLeadItsSamplesAndLeaveWithIt() throws {
        let metrics = Metrics()
        let main = Counter(), cams = Counter(), camsDropped = Counter(), camsOnly = Gauge(3)
        metrics.register(main, name: "fc_decoded_total", help: "Decoded.")
        let scope = metrics.scoped(["channel": "cams"])
        scope.register(cams, name: "fc_decoded_total", help: "ignored")
        scope.register(camsDropped, name: "fc_dropped_total", help: "Dropped.", labels: ["reason": "superseded"])
        scope.register(camsOnly, name: "fc_publish_connected", help: "Only cams publishes.")
        main.increment(by: 2)
        cams.increment(by: 5)
        camsDropped.increment()

        let parsed = try Exposition(parsing: metrics.exposition())
        #expect(parsed.value("fc_decoded_total") == 2)
        #expect(parsed.value("fc_decoded_total", ["channel": "cams"]) == 5)
        #expect(parsed.value("fc_dropped_total", ["channel": "cams", "reason": "superseded"]) == 1)
        #expect(metrics.exposition().contains(#"fc_dropped_total{channel="cams",reason="superseded"} 1"#))
        #expect(parsed.value("fc_publish_connected", ["channel": "cams"]) == 3)

        metrics.remove(label: "channel", value: "cams")
        let after = try Exposition(parsing: metrics.exposition())
        #expect(after.samples.count == 1 && after.value("fc_decoded_total") == 2)
        #expect(after.types == ["fc_decoded_total": "counter"], "families left empty go with their samples")
    }

    @Test func histogramsHaveCumulativeBucketsSumAndCount() throws {
        let metrics = Metrics()
        let histogram = Histogram(bounds: [.milliseconds(1), .milliseconds(2), .milliseconds(4)])
        metrics.register(histogram, name: "fc_encode_seconds", help: "Encode time.", labels: ["stage": "jpeg"])
        for microseconds in [500, 1000, 1001, 3000, 3999, 9000, 250_000] {
            histogram.observe(.microseconds(microseconds))
        }
        histogram.observe(.microseconds(-5))  // a clock that went backwards counts as zero

        let parsed = try Exposition(parsing: metrics.exposition())
        #expect(parsed.types["fc_encode_seconds"] == "histogram")
        let buckets = parsed.samples.filter { $0.name == "fc_encode_seconds_bucket" }
        #expect(buckets.map { $0.labels["le"] } == ["0.001", "0.002", "0.004", "+Inf"])
        #expect(buckets.allSatisfy { $0.labels["stage"] == "jpeg" })
        #expect(buckets.map(\.value) == [3, 4, 6, 8], "≤ 1 ms: 0, 0.5 and 1 ms (inclusive bound)")
        #expect(parsed.value("fc_encode_seconds_count", ["stage": "jpeg"]) == 8)
        let sum = try #require(parsed.value("fc_encode_seconds_sum", ["stage": "jpeg"]))
        #expect(abs(sum - 0.268_500) < 1e-9)
    }

    @Test func frameTimeBucketsDoubleFromAQuarterMillisecond() {
        let bounds = Histogram(bounds: Histogram.frameTimeBounds).snapshot.buckets.map(\.bound)
        #expect(bounds.first == 0.00025 && bounds.dropLast().last == 0.128 && bounds.last == .infinity)
        #expect(bounds.count == 11)
    }

    @Test func concurrentUpdatesAreNotLost() async {
        let counter = Counter(), histogram = Histogram(bounds: Histogram.frameTimeBounds)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask {
                    for index in 0..<25_000 {
                        counter.increment()
                        histogram.observe(.microseconds(100 * (task + index % 7)))
                    }
                }
            }
        }
        #expect(counter.value == 100_000)
        #expect(histogram.snapshot.count == 100_000)
    }

    @Test func namesFollowThePrometheusRules() {
        #expect(Metrics.isValidName("filtercast_frames_total", allowingColons: true))
        #expect(Metrics.isValidName("job:rate_5m", allowingColons: true))
        #expect(!Metrics.isValidName("job:rate", allowingColons: false))
        #expect(!Metrics.isValidName("2fast", allowingColons: true))
        #expect(!Metrics.isValidName("frames-sent", allowingColons: true))
        #expect(!Metrics.isValidName("", allowingColons: true))
        #expect(Metrics.number(.infinity) == "+Inf" && Metrics.number(-.infinity) == "-Inf" && Metrics.number(.nan) == "NaN")
        #expect(Double(Metrics.number(1e-7)) == 1e-7)
    }
}
