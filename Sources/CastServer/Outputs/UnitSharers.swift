import MediaKit
import Synchronization

/// The writers that take an H.264 rendition's access units besides its viewers (a publish
/// stream sharing the encode): each unit is handed to each, in order, on the encoder thread.
final class UnitSharers: Sendable {
    typealias Sink = @Sendable (EncodedAccessUnit) -> Void
    /// An array, so that `deliver` takes a copy of it (a reference, copied on the next write)
    /// rather than building one for every unit.
    private let sinks = Mutex<(next: Int, list: [(token: Int, sink: Sink)])>((1, []))

    /// How many there are: they count as an audience.
    var count: Int { sinks.withLock { $0.list.count } }

    func add(_ sink: @escaping Sink) -> Int {
        sinks.withLock { sinks in
            defer { sinks.next += 1 }
            sinks.list.append((sinks.next, sink))
            return sinks.next
        }
    }

    func remove(_ token: Int) {
        sinks.withLock { $0.list.removeAll { $0.token == token } }
    }

    /// Encoder thread: `unit` to every sink (outside the lock: a sink may take its time to copy).
    func deliver(_ unit: EncodedAccessUnit) {
        let current = sinks.withLock { $0.list }
        for entry in current { entry.sink(unit) }
    }
}
