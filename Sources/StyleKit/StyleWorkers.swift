import Dispatch
import Foundation
import Logging
import Synchronization

/// The threads a ``StyleEngine`` runs OpenVINO on beside the frame path — each link's
/// ``StyleRefresher`` worker and the compile of a new network height — at a lower priority than
/// the frame path (``lowerPriority()``), and their end: ``stop(within:)`` closes every refresher's
/// mailbox and waits until every one of them returned, so that the process never tears OpenVINO
/// down (`exit`'s destructors) under a run or a compile still going (a crash, not a clean exit).
///
/// Thread-safe. A thread ends on its own (its refresher released) and is then forgotten: a
/// server that made many links holds nothing for them.
final class StyleWorkers: Sendable {
    private struct Running {
        /// The mailboxes of the refreshers whose workers run, to close at the stop.
        var mailboxes: [ObjectIdentifier: StyleMailbox] = [:]
        var stopped = false
    }

    /// Entered by every thread started, left when it returned: the stop waits for it to empty.
    private let group = DispatchGroup()
    private let running = Mutex(Running())

    /// The nice value of the threads: over the frame path's 0, so the decode, the filters and the
    /// encoders keep their share of a busy machine (a thread at 10 weighs ~1/10 of one at 0 under
    /// the CFS). Measured against SCHED_IDLE and SCHED_BATCH in `bench/style_rate.py`.
    static let niceness: Int32 = 10

    /// Starts `body` on a thread called `name` at ``niceness``; `mailbox` (a refresher's) is closed
    /// at the stop, which ends its worker after the run in progress. False, nothing started, once
    /// stopped.
    func start(_ name: String, closing mailbox: StyleMailbox? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        let started = running.withLock { running in
            guard !running.stopped else { return false }
            if let mailbox { running.mailboxes[ObjectIdentifier(mailbox)] = mailbox }
            return true
        }
        guard started else { return false }
        group.enter()
        let thread = Thread { [self] in
            Self.lowerPriority()
            body()
            if let mailbox { running.withLock { _ = $0.mailboxes.removeValue(forKey: ObjectIdentifier(mailbox)) } }
            group.leave()
        }
        thread.name = name
        thread.start()
        return true
    }

    /// Refuses new threads, ends every refresher's worker after its run and waits for every thread
    /// started to return, at most `bound`; false if one was still running then (said).
    @discardableResult
    func stop(within bound: Duration) -> Bool {
        let mailboxes = running.withLock { running in
            running.stopped = true
            return Array(running.mailboxes.values)
        }
        mailboxes.forEach { $0.close() }
        let deadline = DispatchTime.now() + .nanoseconds(Int(bound.seconds * 1e9))
        guard group.wait(timeout: deadline) == .timedOut else { return true }
        Log.warning("style: a network run or compile was still going \(bound) after the stop")
        return false
    }

    /// Lowers the calling thread's priority to ``niceness``. OpenVINO's own threads (TBB's) take
    /// the priority of the thread that made them: the engine's first run is on one of these
    /// threads, so they are made at this priority too.
    static func lowerPriority() {
        // PRIO_PROCESS with 0 is the calling thread on Linux (the nice value is a thread's).
        if setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) != 0 {
            Log.warning("style: the network's thread keeps the frame path's priority (setpriority: errno \(errno))")
        }
    }
}
