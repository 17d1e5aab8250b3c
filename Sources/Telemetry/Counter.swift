import Synchronization

/// A monotonically increasing count (Prometheus counter): lock-free, safe from any thread.
public final class Counter: Sendable {
    private let count = Atomic<UInt64>(0)

    public init() {}

    public func increment(by amount: UInt64 = 1) {
        count.wrappingAdd(amount, ordering: .relaxed)
    }

    public var value: UInt64 { count.load(ordering: .relaxed) }
}
