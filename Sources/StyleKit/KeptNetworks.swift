/// The compiled networks the style engine keeps (tens of MB each: one per model and picture
/// shape): every one a link paints with now, and at most ``idle`` that none does — the
/// calibration's, the predictor's, those of channels removed lately, the most recently used
/// first — so that a channel coming back need not compile again, while channels of many shapes
/// coming and going leave no more behind (issue 37.6: six networks kept by recency alone held
/// ~300 MB that no channel used). At most ``capacity`` in all, the least recently used dropped
/// first (a link whose network went compiles it again at its next run).
///
/// Not thread-safe: the engine keeps it under its lock.
struct KeptNetworks<Key: Hashable, Network> {
    /// The networks kept at most, painted with or not.
    var capacity: Int { networks.capacity }
    /// The networks no link paints with kept at most.
    let idle: Int
    private var networks: RecentlyUsed<Key, Network>
    /// How many links paint with each network now (none: idle).
    private var painters: [Key: Int] = [:]

    init(capacity: Int, idle: Int) {
        precondition(idle >= 0 && idle <= capacity, "\(idle) idle networks of \(capacity)")
        networks = RecentlyUsed(capacity: capacity)
        self.idle = idle
    }

    var count: Int { networks.count }

    /// The network for `key`, now the most recently used; nil when none is kept.
    mutating func network(for key: Key) -> Network? { networks.value(for: key) }

    /// Keeps `network` for `key` as the most recently used: idle until a link paints with it, but
    /// kept until a link's network changes (``paint(with:insteadOf:)``), for the link that asked.
    mutating func insert(_ network: Network, for key: Key) { networks.insert(network, for: key) }

    /// A link paints with the network of `key` from now on instead of that of `previous` (nil
    /// when the link starts, or ends: then `key` is nil); past ``idle`` the networks no link
    /// paints with go, those used longest ago first.
    mutating func paint(with key: Key?, insteadOf previous: Key?) {
        guard key != previous else { return }
        if let key { painters[key, default: 0] += 1 }
        if let previous, let count = painters[previous] { painters[previous] = count > 1 ? count - 1 : nil }
        dropIdle()
    }

    /// Drops every network whose key `isKept` says no to, painted with or not (their links
    /// compile again at their next run).
    mutating func keep(where isKept: (Key) -> Bool) { networks.keep(where: isKept) }

    private mutating func dropIdle() {
        networks.dropIdle(where: { painters[$0] == nil }, keeping: idle)
    }
}

extension KeptNetworks: Sendable where Key: Sendable, Network: Sendable {}
