/// How a ``Publisher`` encodes and how patiently it waits for the server.
public struct PublisherOptions: Sendable {
    /// libx264's preset.
    public var preset = "veryfast"
    /// libx264's profile: baseline, because every WebRTC viewer decodes it (some browsers' WebRTC
    /// H.264, Firefox's OpenH264, negotiates Constrained Baseline only).
    public var profile = "baseline"
    /// Encoder threads.
    public var threads = 1
    /// Frames waiting for the encoder; beyond this the oldest waiting frame is dropped (and counted).
    public var queueCapacity = 8
    /// A connection (and the stream header) must be through within this.
    public var connectTimeout: Duration = .seconds(10)
    /// A frame's write must be through within this, else the connection counts as broken.
    public var writeTimeout: Duration = .seconds(5)
    /// Delays between attempts after a failure (doubling from the first, capped).
    public var retry = RetryPolicy()

    public init() {}
}
