import Telemetry

/// What a ``Publisher`` counts, for /metrics.
public struct PublishCounters: Sendable {
    /// 1 while connected to the server, else 0.
    public let connected = Gauge()
    /// Frames encoded and written to the server.
    public let frames = Counter()
    /// Bytes written to the server (all connections).
    public let bytes = Counter()
    /// Connections that failed to open or broke.
    public let failures = Counter()
    /// Frames dropped because the encoder or the network had not taken the earlier ones yet.
    public let dropped = Counter()
}
