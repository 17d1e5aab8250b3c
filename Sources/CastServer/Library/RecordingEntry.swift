/// One file of `GET /api/recordings`.
public struct RecordingEntry: Sendable, Equatable, Encodable {
    /// The file name in the recordings folder (open it as `recordings/NAME`).
    public var name: String
    /// Seconds of video; nil when the file cannot be read (yet).
    public var duration: Double?
    /// Bytes.
    public var size: Int64
    /// When the file was last written, ISO 8601 UTC (`2026-11-30T10:15:02Z`).
    public var created: String
    /// What a filtered recording was filtered with when it started (the chain's filter names
    /// joined by " + ", such as `sepia`); absent for an unfiltered one and for other files.
    public var filter: String? = nil
    /// The program chain at a recording's start and every change, with its time in seconds from
    /// the start (its sidecar, ``RecordingLooks``); absent for a recording without one.
    public var looks: [RecordingLooks.Look]? = nil
    /// True when the recording had more changes than its sidecar keeps (``RecordingLookLog/changeLimit``).
    public var looksTruncated: Bool? = nil
    /// Frames the viewers got that a filtered recording left out (its sidecar); absent when none.
    public var droppedFrames: Int? = nil
}
