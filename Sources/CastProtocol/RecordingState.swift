/// The `recording` object of `state`: the current recording, or how the last one ended.
///
/// Encodes every key always: `{"active":…,"name":…,"filtered":…,"elapsed":…,"bytes":…,
/// "droppedFrames":…,"encoder":…,"error":…}`, with `null` for what is unknown.
public struct RecordingState: Sendable, Equatable, Encodable {
    public var active: Bool
    /// The file in the recordings folder (current or last recording); nil before any.
    public var name: String?
    /// Whether filtered frames are (were) recorded; nil before any recording.
    public var filtered: Bool?
    /// Seconds since the recording started.
    public var elapsed: Double
    /// Bytes written to the file so far.
    public var bytes: Int64
    /// Frames left out of the recording because the encoder fell behind (the preview never is).
    public var droppedFrames: Int
    /// The video encoder (`libx264`, or a fallback).
    public var encoder: String?
    /// Why the last recording stopped by itself (disk space, size limit, write error).
    public var error: String?

    public init(active: Bool = false, name: String? = nil, filtered: Bool? = nil, elapsed: Double = 0,
                bytes: Int64 = 0, droppedFrames: Int = 0, encoder: String? = nil, error: String? = nil) {
        self.active = active
        self.name = name
        self.filtered = filtered
        self.elapsed = elapsed
        self.bytes = bytes
        self.droppedFrames = droppedFrames
        self.encoder = encoder
        self.error = error
    }

    private enum CodingKeys: String, CodingKey {
        case active, name, filtered, elapsed, bytes, droppedFrames, encoder, error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(active, forKey: .active)
        try container.encode(name, forKey: .name)
        try container.encode(filtered, forKey: .filtered)
        try container.encode(elapsed.isFinite ? (elapsed * 1000).rounded() / 1000 : 0, forKey: .elapsed)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(droppedFrames, forKey: .droppedFrames)
        try container.encode(self.encoder, forKey: .encoder)
        try container.encode(error, forKey: .error)
    }
}
