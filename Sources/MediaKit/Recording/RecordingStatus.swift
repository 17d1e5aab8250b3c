/// What a ``Recorder`` is doing, or how its last recording ended.
public struct RecordingStatus: Sendable, Equatable {
    public var isActive = false
    /// The file name (in the recordings folder) of the current or last recording.
    public var name: String?
    /// Whether the filtered frames are recorded (else the source's); nil before any recording.
    public var filtered: Bool?
    /// Seconds since the recording started (of the last one, once stopped).
    public var elapsed: Double = 0
    /// Bytes in the file so far.
    public var bytes: Int64 = 0
    /// Frames the encoder could not keep up with and left out of the file (never preview frames).
    public var droppedFrames = 0
    /// Frames that are the held picture again, written while no new frame came (paused, a
    /// stalled source).
    public var heldFrames = 0
    /// The encoder in use (`libx264`, or a fallback).
    public var encoder: String?
    /// Why the last recording stopped by itself (disk space, size limit, a write error); nil
    /// when it was stopped on request or is still running.
    public var error: String?

    public init() {}
}
