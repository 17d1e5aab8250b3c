/// What a ``Publisher`` is doing: its connection to the media server and what it has sent.
public struct PublishStatus: Sendable, Equatable {
    public enum Connection: String, Sendable {
        /// Opening the connection and sending the stream header.
        case connecting
        /// Streaming.
        case connected
        /// The connection failed or broke; the next attempt is at `retryAt`.
        case retrying
        case stopped
    }

    public var connection = Connection.connecting
    /// The server's URL without credentials or query.
    public var target: String
    /// Why the last connection failed or broke (without the target: that is `target`); nil until one has.
    public var reason: String?
    /// When the next attempt starts (while retrying).
    public var retryAt: ContinuousClock.Instant?
    /// The encoder of the current or last connection (`libx264`).
    public var encoder: String?

    public init(target: String) {
        self.target = target
    }
}
