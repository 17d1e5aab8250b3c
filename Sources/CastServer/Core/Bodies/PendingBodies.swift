import Dispatch
import MediaKit
import Synchronization

/// The request bodies the core is taking, by connection, and those whose client left while their
/// check still ran (each is let go once its check ends: a check is never waited for on the
/// network thread). Network thread only; a check's thread only marks its entry checked.
struct PendingBodies {
    /// Set by a check's thread once its work is done.
    private final class Done: Sendable {
        let flag = Atomic<Bool>(false)
        /// Signalled with the flag (for tests that wait: ``waitForChecks()``).
        let signal = DispatchSemaphore(value: 0)
    }

    private struct Entry {
        let body: any PendingBody
        var check: (thread: WorkerThread, done: Done, answer: (ServerCore) -> BodyStep)?

        /// Its check ended; its thread is joined.
        func joinIfChecked() -> Bool {
            guard let check, check.done.flag.load(ordering: .acquiring) else { return false }
            check.thread.join()
            return true
        }
    }

    private var byConnection: [ConnectionID: Entry] = [:]
    private var left: [Entry] = []

    /// The body connection `id` is sending or that is checked for it.
    subscript(id: ConnectionID) -> (any PendingBody)? { byConnection[id]?.body }

    /// Whether `id`'s body is being checked.
    func isChecking(_ id: ConnectionID) -> Bool { byConnection[id]?.check != nil }

    /// Every body of type `Body`, those left while checked included: what is held at once.
    func all<Body: PendingBody>(_ type: Body.Type) -> [Body] {
        (byConnection.values.map(\.body) + left.map(\.body)).compactMap { $0 as? Body }
    }

    mutating func admit(_ body: any PendingBody, on id: ConnectionID) {
        byConnection[id] = Entry(body: body)
    }

    /// The body of `id`, no longer pending (refused or answered another way).
    @discardableResult
    mutating func remove(_ id: ConnectionID) -> (any PendingBody)? {
        byConnection.removeValue(forKey: id)?.body
    }

    /// Runs `work` for `id`'s body on a thread called `name`, which rings `wake` when done; then
    /// `answer` is its answer.
    mutating func check(_ id: ConnectionID, thread name: String, work: @escaping @Sendable () -> Void,
                        answer: @escaping (ServerCore) -> BodyStep, wake: NetworkWake) {
        let done = Done()
        let thread = WorkerThread(name: name) {
            work()
            done.flag.store(true, ordering: .releasing)
            done.signal.signal()
            wake.ring()
        }
        byConnection[id]?.check = (thread, done, answer)
    }

    /// Waits until every check started so far has ended (tests: what a wake-up would find).
    func waitForChecks() {
        for check in (byConnection.values.compactMap(\.check) + left.compactMap(\.check)) {
            check.done.signal.wait()
            check.done.signal.signal()
        }
    }

    /// How to answer each body whose check ended, with its connection: no longer pending.
    mutating func takeChecked() -> [(ConnectionID, (ServerCore) -> BodyStep)] {
        let checked = byConnection.filter { $0.value.joinIfChecked() }
        for id in checked.keys { byConnection[id] = nil }
        return checked.compactMap { id, entry in entry.check.map { (id, $0.answer) } }
    }

    /// The bodies whose client left and whose check ended since: to be let go.
    mutating func takeLeftChecked() -> [any PendingBody] {
        var ended: [any PendingBody] = []
        left.removeAll { entry in
            guard entry.joinIfChecked() else { return false }
            ended.append(entry.body)
            return true
        }
        return ended
    }

    /// `id`'s client left: its body to let go now; nil when there is none, or while its check
    /// runs (it comes from ``takeLeftChecked()`` once the check ended).
    mutating func close(_ id: ConnectionID) -> (any PendingBody)? {
        guard let entry = byConnection.removeValue(forKey: id) else { return nil }
        if entry.check == nil || entry.joinIfChecked() { return entry.body }
        left.append(entry)
        return nil
    }
}
