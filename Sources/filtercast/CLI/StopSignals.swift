import Foundation
import Logging
import MediaKit
import Synchronization

/// SIGINT and SIGTERM for `serve`: blocked in every thread and taken by one `signals` thread,
/// so that a stop is seen at any moment — while an input is being opened (a blocking FFmpeg call
/// on the main thread) as well as while serving.
///
/// Before ``serving()``, a stop signal ends the process at once (exit code 1: nothing was served,
/// nothing is open that needs closing). After it, the first signal makes ``wait()`` return so that
/// the caller shuts down gracefully (bounded: about a second); later ones change nothing (`timeout`
/// and some supervisors signal both the process and its group).
final class StopSignals: Sendable {
    /// What the `signals` thread and the caller share.
    private final class Shared: Sendable {
        let stopRequested = DispatchSemaphore(value: 0)
        let isServing = Atomic<Bool>(false)
        let received = Atomic<Int32>(0)
    }
    private let shared = Shared()
    private let thread: WorkerThread

    /// Call on the main thread before any other thread starts: threads inherit the blocked set.
    init() {
        var signals = StopSignals.set
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let shared = shared
        thread = WorkerThread(name: "signals") {
            var signals = StopSignals.set
            while true {
                var signal: Int32 = 0
                guard sigwait(&signals, &signal) == 0 else { continue }
                let name = signal == SIGINT ? "interrupted" : "terminated"
                if !shared.isServing.load(ordering: .acquiring) {
                    Log.error("\(name) while starting")
                    _exit(1)
                }
                if shared.received.exchange(signal, ordering: .acquiringAndReleasing) == 0 { shared.stopRequested.signal() }
            }
        }
    }

    /// From now on a stop signal asks for a graceful shutdown (see ``wait()``).
    func serving() { shared.isServing.store(true, ordering: .releasing) }

    /// Waits for the first stop signal after ``serving()``; returns "interrupted" (SIGINT) or
    /// "terminated" (SIGTERM).
    func wait() -> String {
        shared.stopRequested.wait()
        return shared.received.load(ordering: .acquiring) == SIGINT ? "interrupted" : "terminated"
    }

    private static var set: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
