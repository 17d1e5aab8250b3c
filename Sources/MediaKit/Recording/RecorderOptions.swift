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
    /// Frames waiting for the encoder; beyond this the oldest waiting frame is dropped (and
    /// counted). Nil: ``queueCapacity(width:height:frameRate:)``'s.
    public var queueCapacity: Int? = nil
    /// The most memory a take's waiting frames may hold: 2 s of 720p, 1 s of 1080p.
    public static let queueBytes = 96_000_000

    /// How many frames a take of this size and rate keeps waiting: `queueCapacity`, else 2 s of
    /// them (at least 12) within ``queueBytes``, so that a burst — the encoder starting, a busy
    /// second on the machine — is absorbed rather than dropped (the frames are made only when the
    /// queue fills: a take that keeps up holds few).
    public func queueCapacity(width: Int, height: Int, frameRate: Double) -> Int {
        if let queueCapacity { return queueCapacity }
        let frameBytes = width * height * 3 / 2
        return max(12, min(Int((2 * frameRate).rounded(.up)), Self.queueBytes / max(frameBytes, 1)))
    }

    public init(directory: String) {
        self.directory = directory
    }
}
