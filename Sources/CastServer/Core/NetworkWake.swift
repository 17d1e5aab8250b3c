import Logging
import Synchronization

/// How any thread makes the network thread look at what changed: a new frame, a finished
/// upload probe, a recording that stopped by itself. Built before every part that rings it, so
/// nothing needs a pointer back to the transport; the transport arms it with how to wake its
/// network thread (lws: `lws_cancel_service`) once it listens and disarms it before it lets go.
///
/// Threads: `ring` from any thread (the waking runs under the lock, so what it wakes cannot be
/// destroyed meanwhile); `arm`/`disarm` from the thread that starts and stops the transport.
package final class NetworkWake: Sendable {
    /// How to wake the network thread (nil: nothing to wake).
    private let waking = Mutex<(@Sendable () -> Void)?>(nil)
    /// Reasons recordings stopped by themselves, by channel, not yet told to the viewers.
    private let recordingFailures = Mutex<[(channel: ChannelName, reason: String)]>([])

    package init() {}

    package func ring() {
        waking.withLock { $0?() }
    }

    /// From now on `ring` calls `wake` (any thread, under this wake's lock: it must not ring again).
    package func arm(_ wake: @escaping @Sendable () -> Void) { waking.withLock { $0 = wake } }

    /// After this, `ring` does nothing.
    package func disarm() { waking.withLock { $0 = nil } }

    /// Any thread: a recording of `channel` stopped by itself; its viewers are told on the network thread.
    func recordingEnded(_ reason: String, channel: ChannelName) {
        Log.warning("recording stopped: \(reason)", ["channel": .string(channel.description)])
        recordingFailures.withLock { $0.append((channel, reason)) }
        ring()
    }

    /// The recordings that stopped since the last call, each with its channel (network thread).
    func takeRecordingFailures() -> [(channel: ChannelName, reason: String)] {
        recordingFailures.withLock { failures in
            defer { failures.removeAll() }
            return failures
        }
    }
}
