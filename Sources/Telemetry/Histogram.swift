import Synchronization

/// A distribution of durations (Prometheus histogram, in seconds): fixed buckets, lock-free.
/// `observe` does not allocate, so it can time every frame.
public final class Histogram: Sendable {
    /// One bucket's count. (Atomics cannot be array elements; references to them can.)
    private final class Slot: Sendable {
        let count = Atomic<UInt64>(0)
    }

    /// Upper bounds in nanoseconds, ascending; the last slot is +Inf.
    private let bounds: [Int64]
    private let slots: [Slot]
    private let sumNanoseconds = Atomic<UInt64>(0)

    /// Bucket upper bounds for per-frame work: 0.25 ms … 128 ms, doubling.
    public static let frameTimeBounds: [Duration] = (0..<10).map { .microseconds(250 << $0) }

    /// `bounds`: the buckets' inclusive upper limits, ascending (a +Inf bucket is added).
    public init(bounds: [Duration]) {
        precondition(!bounds.isEmpty && zip(bounds, bounds.dropFirst()).allSatisfy { $0 < $1 },
                     "histogram bounds must be ascending")
        self.bounds = bounds.map(Self.nanoseconds)
        slots = (0...bounds.count).map { _ in Slot() }
    }

    public func observe(_ duration: Duration) {
        let nanoseconds = max(0, Self.nanoseconds(duration))
        var index = 0
        while index < bounds.count && nanoseconds > bounds[index] { index &+= 1 }
        slots[index].count.wrappingAdd(1, ordering: .relaxed)
        sumNanoseconds.wrappingAdd(UInt64(nanoseconds), ordering: .relaxed)
    }

    /// Times `body` into the histogram.
    public func time<Result>(_ body: () throws -> Result) rethrows -> Result {
        let start = ContinuousClock.now
        defer { observe(start.duration(to: .now)) }
        return try body()
    }

    /// The counts read once: cumulative per bound (`le`), the +Inf one last, which is `count`.
    public struct Snapshot: Sendable {
        /// (upper bound in seconds, observations ≤ it); the last bound is `.infinity`.
        public let buckets: [(bound: Double, count: UInt64)]
        public let sum: Double
        public var count: UInt64 { buckets.last?.count ?? 0 }
    }

    public var snapshot: Snapshot {
        var cumulative: UInt64 = 0
        var buckets: [(bound: Double, count: UInt64)] = []
        for (index, slot) in slots.enumerated() {
            cumulative &+= slot.count.load(ordering: .relaxed)
            buckets.append((index < bounds.count ? Double(bounds[index]) / 1e9 : .infinity, cumulative))
        }
        return Snapshot(buckets: buckets, sum: Double(sumNanoseconds.load(ordering: .relaxed)) / 1e9)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds &* 1_000_000_000 &+ attoseconds / 1_000_000_000
    }
}
