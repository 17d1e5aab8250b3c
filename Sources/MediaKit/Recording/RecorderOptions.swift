/// Where and how a ``Recorder`` writes.
public struct RecorderOptions: Sendable {
    /// The recordings folder; created when missing.
    public var directory: String
    /// Stop (with an error) once a file reaches this many bytes; nil: no limit.
    public var maximumBytes: Int64?
    /// Refuse to start, and stop, when the folder's file system has less free space than this.
    public var minimumFreeBytes: Int64 = 500 * 1_000_000
    /// libx264's preset.
    public var preset = "veryfast"
    /// Encoder threads.
    public var threads = 1
    /// Frames waiting for the encoder; beyond this the oldest waiting frame is dropped (and counted).
    public var queueCapacity = 12

    public init(directory: String) {
        self.directory = directory
    }
}
