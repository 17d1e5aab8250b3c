/// The source's sound: `state.source.audio` (null without), and, as `hello.audio`, what the
/// server sends of it to a client that asks (`watch {audio: true}`).
public struct SourceAudio: Sendable, Equatable, Codable {
    /// FFmpeg's codec name: the source's (`aac`, `ac3`, `mp3`, …); `opus` on the wire.
    public var codec: String
    public var channels: Int
    /// Samples per second.
    public var rate: Int

    public init(codec: String, channels: Int, rate: Int) {
        self.codec = codec
        self.channels = channels
        self.rate = rate
    }

    /// What the server sends (`hello.audio`): Opus, stereo, 48 kHz, 20 ms packets.
    public static let wire = SourceAudio(codec: "opus", channels: 2, rate: 48_000)
}
