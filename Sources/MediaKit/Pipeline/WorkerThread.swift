#if canImport(Glibc)
import Glibc
#endif

/// A named POSIX thread for one blocking job (decoding, the network loop), which can be joined.
///
/// Blocking C loops do not belong in Swift tasks: the cooperative pool has only as many threads
/// as cores (two here), and one blocked task would halve it.
public final class WorkerThread: Sendable {
    private let thread: pthread_t

    private final class Job {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread called `name` (at most 15 characters are kept).
    public init(name: String, _ body: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let job = Unmanaged.passRetained(Job(body)).toOpaque()
        let result = pthread_create(&thread, nil, { argument in
            let job = Unmanaged<Job>.fromOpaque(argument!).takeRetainedValue()
            job.body()
            return nil
        }, job)
        precondition(result == 0, "pthread_create failed: \(result)")
        _ = setThreadName(thread, String(name.prefix(15)))
        self.thread = thread
    }

    /// Waits for the thread to finish. Call once.
    public func join() {
        pthread_join(thread, nil)
    }
}

/// glibc's `pthread_setname_np` is hidden behind `_GNU_SOURCE` in the Glibc module.
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
