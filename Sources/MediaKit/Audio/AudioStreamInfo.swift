/// What a source's audio stream is, as `state.source.audio` shows it.
public struct AudioStreamInfo: Sendable, Equatable {
    /// FFmpeg's codec name: `ac3`, `aac`, `mp3`, `opus`, …
    public let codec: String
    public let channels: Int
    /// Samples per second.
    public let rate: Int
}
