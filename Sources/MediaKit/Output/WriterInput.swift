import FilterKit
import Telemetry

/// What a writer's thread — a ``Publisher``'s stream, a shared recording — writes from, and that
/// thread: the session's frames, encoded for the stream alone (``EncodingPublishInput``), or the
/// access units of an encode the page's viewers share (``SharedEncodeInput``).
///
/// Threads: `start` and `finish` from the publisher's owner; the rest on the publish thread.
protocol WriterInput: AnyObject, Sendable {
    /// Starts the publish thread, which runs `body`.
    func start(_ body: @escaping @Sendable () -> Void)
    /// Wakes the publish thread (stop was asked) and waits for it to end.
    func finish()
    /// Opens `destination` (connects) and writes the stream's header.
    func connect(_ destination: VideoWriter.Destination, interruption: Interruption) throws(MediaError) -> VideoWriter
    /// Writes the next picture; when none comes within `keepAlive`, keeps the stream alive (the
    /// last picture again, or asks for one). Returns whether a picture was written.
    func writeNext(to writer: VideoWriter, keepAlive: Duration) throws(MediaError) -> Bool
    /// Not connected until `deadline`: lets the pictures meanwhile go (but the newest, where the
    /// input can start again from it).
    func idle(until deadline: ContinuousClock.Instant, stopping: () -> Bool)
    /// The thread ends: gives back what is held.
    func close()
}
