/// `share` `start`: a client's camera becomes the session's source. What it says it will send;
/// the server checks it against its limits (``IngestLimits``).
public struct ShareRequest: Sendable, Equatable {
    /// How the pictures are encoded.
    public enum Codec: String, Sendable, CaseIterable {
        /// H.264 access units (Annex B), in decoding order, no B-frames.
        case h264
        /// One JPEG a picture.
        case jpeg
    }

    public var codec: Codec
    public var width: Int
    public var height: Int
    /// What the page calls the camera (its label), shown as the source's name.
    public var label: String
    /// Take over from a client that shares already (it is told), rather than be refused.
    public var takeOver: Bool
    /// The microphone's sound that comes with the pictures (`FCM1` messages); nil: none.
    public var audio: Audio?

    /// The longest label kept.
    public static let maximumLabelLength = 120

    /// `share.audio`: Opus packets (the only codec) of `channels` at `rate` samples a second.
    public struct Audio: Sendable, Equatable {
        public var channels: Int
        public var rate: Int

        public init(channels: Int, rate: Int) { (self.channels, self.rate) = (channels, rate) }
    }

    public init(codec: Codec, width: Int, height: Int, label: String, takeOver: Bool, audio: Audio? = nil) {
        self.codec = codec
        self.width = width
        self.height = height
        self.label = label
        self.takeOver = takeOver
        self.audio = audio
    }
}
