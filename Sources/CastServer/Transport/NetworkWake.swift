import CWebSockets
import Logging
import Synchronization

/// How any thread makes the network thread look at what changed: a new frame, a finished
/// upload probe, a recording that stopped by itself. Built before every part that rings it, so
/// nothing needs a pointer back to the transport; the transport arms it with its lws context
/// once it listens and disarms it before it lets go of lws.
///
/// Threads: `ring` from any thread (the one lws call other threads may make,
/// `lws_cancel_service`, made under the lock so the context cannot be destroyed meanwhile);
/// `arm`/`disarm` from the thread that starts and stops the transport.
final class NetworkWake: Sendable {
    /// The lws context's address (0: none); an address, not the pointer, so that the mutex holds a Sendable value.
    private let context = Mutex<Int>(0)
    /// Reasons recordings stopped by themselves, by channel, not yet told to the viewers.
    private let recordingFailures = Mutex<[(channel: ChannelName, reason: String)]>([])

    init() {}

    func ring() {
        context.withLock { if let context = OpaquePointer(bitPattern: $0) { lws_cancel_service(context) } }
    }

    func arm(_ context: OpaquePointer) { self.context.withLock { $0 = Int(bitPattern: UnsafeRawPointer(context)) } }

    /// After this, `ring` does nothing.
    func disarm() { context.withLock { $0 = 0 } }

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
