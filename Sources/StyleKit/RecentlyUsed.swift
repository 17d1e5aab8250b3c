/// At most `capacity` values by key; inserting past it drops the one used longest ago. What the
/// style engine keeps of its compiled networks (tens of MB each, one per model and picture
/// shape): channels of many shapes coming and going grew the process by ~20 MB each, for good.
struct RecentlyUsed<Key: Hashable, Value> {
    let capacity: Int
    private var entries: [Key: (value: Value, used: Int)] = [:]
    private var uses = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a capacity of \(capacity)")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The value for `key`, now the most recently used; nil when none is kept.
    mutating func value(for key: Key) -> Value? {
        guard let value = entries[key]?.value else { return nil }
        uses += 1
        entries[key] = (value, uses)
        return value
    }

    /// Keeps `value` for `key` as the most recently used, dropping the least recently used past
    /// the capacity.
    mutating func insert(_ value: Value, for key: Key) {
        uses += 1
        entries[key] = (value, uses)
        while entries.count > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key {
            entries[oldest] = nil
        }
    }

    /// Drops every value whose key `isKept` says no to.
    mutating func keep(where isKept: (Key) -> Bool) {
        entries = entries.filter { isKept($0.key) }
    }

    /// Drops the least recently used of the values whose key `isIdle` says yes to until at most
    /// `keeping` of those are left.
    mutating func dropIdle(where isIdle: (Key) -> Bool, keeping: Int) {
        let idle = entries.filter { isIdle($0.key) }.sorted { $0.value.used > $1.value.used }
        for (key, _) in idle.dropFirst(keeping) { entries[key] = nil }
    }
}

extension RecentlyUsed: Sendable where Key: Sendable, Value: Sendable {}
