import Synchronization

/// A value that goes up and down (Prometheus gauge): lock-free, safe from any thread.
public final class Gauge: Sendable {
    private let current: Atomic<Int>

    public init(_ value: Int = 0) {
        current = Atomic(value)
    }

    public func set(_ value: Int) {
        current.store(value, ordering: .relaxed)
    }

    public func set(_ flag: Bool) {
        set(flag ? 1 : 0)
    }

    public var value: Int { current.load(ordering: .relaxed) }
}
