import CastProtocol

/// Who changed what on one channel: its last ``capacity`` changes (`GET /api/activity`), and
/// which of them are sent now as `activity`. A burst of moves of one slider is one entry: at most
/// one message per person and ``Change/burst`` key in ``burstWindow``; moves within it update the
/// entry (the list keeps the burst's latest value), and when the window closes with a newer
/// value than the one sent, ``flush(now:)`` sends the entry again (same id) and opens the next window.
/// Pure: the clock is the caller's (the core's, a test's).
struct ActivityLog {
    static let capacity = 500
    static let burstWindow = Duration.seconds(2)


    private struct Burst {
        var entry: Int
        var sentAt: ContinuousClock.Instant
        /// The entry changed since it was sent.
        var newer: Bool
    }

    /// Oldest first.
    private(set) var entries: [ActivityEntry] = []
    private var bursts: [String: Burst] = [:]
    private var lastID = 0

    /// Notes `change` (its id is the log's to give) at `now`; changes with the same `burst` key
    /// from the same person coalesce (nil: never). Returns the entry to send now, or nil when it
    /// joined a burst whose message went out less than ``burstWindow`` ago.
    mutating func record(_ change: ActivityEntry, burst: String?, now: ContinuousClock.Instant) -> ActivityEntry? {
        let key = burst.map { change.by.id + "\u{1F}" + $0 }
        // A burst goes on while its window is open, or past it with a value not yet sent (a
        // flush not yet made); one whose window closed with nothing newer has ended.
        if let key, let burst = bursts[key], let index = entries.lastIndex(where: { $0.id == burst.entry }) {
            let closed = burst.sentAt.duration(to: now) >= Self.burstWindow
            if !closed || burst.newer {
                entries[index] = entry(burst.entry, change)
                guard closed else {
                    bursts[key]!.newer = true
                    return nil
                }
                bursts[key] = Burst(entry: burst.entry, sentAt: now, newer: false)
                return entries[index]
            }
        }
        lastID += 1
        let new = entry(lastID, change)
        entries.append(new)
        if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
        if let key { bursts[key] = Burst(entry: lastID, sentAt: now, newer: false) }
        return new
    }

    /// The entries of bursts whose window closed with a value newer than the one sent: sent
    /// again now (a new window opens for each). Bursts that closed with nothing newer end.
    mutating func flush(now: ContinuousClock.Instant) -> [ActivityEntry] {
        var due: [ActivityEntry] = []
        for (key, burst) in bursts where burst.sentAt.duration(to: now) >= Self.burstWindow {
            guard burst.newer, let entry = entries.last(where: { $0.id == burst.entry }) else {
                bursts[key] = nil
                continue
            }
            bursts[key] = Burst(entry: burst.entry, sentAt: now, newer: false)
            due.append(entry)
        }
        return due.sorted { $0.id < $1.id }
    }

    private func entry(_ id: Int, _ change: ActivityEntry) -> ActivityEntry {
        var entry = change
        entry.id = id
        return entry
    }
}
