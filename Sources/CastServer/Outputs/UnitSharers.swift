import MediaKit
import Synchronization

/// The writers that take an H.264 rendition's access units besides its viewers (a publish
/// stream sharing the encode): each unit is handed to each, in order, on the encoder thread.
final class UnitSharers: Sendable {
    private let sinks = Mutex<(next: Int, byToken: [Int: @Sendable (EncodedAccessUnit) -> Void])>((1, [:]))

    /// How many there are: they count as an audience.
    var count: Int { sinks.withLock { $0.byToken.count } }

    func add(_ sink: @escaping @Sendable (EncodedAccessUnit) -> Void) -> Int {
        sinks.withLock { sinks in
            defer { sinks.next += 1 }
            sinks.byToken[sinks.next] = sink
            return sinks.next
        }
    }

    func remove(_ token: Int) {
        _ = sinks.withLock { $0.byToken.removeValue(forKey: token) }
    }

    /// Encoder thread: `unit` to every sink (outside the lock: a sink may take its time to copy).
    func deliver(_ unit: EncodedAccessUnit) {
        let current = sinks.withLock { Array($0.byToken.values) }
        for sink in current { sink(unit) }
    }
}
