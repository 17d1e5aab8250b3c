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

    /// The longest label kept.
    public static let maximumLabelLength = 120

    public init(codec: Codec, width: Int, height: Int, label: String, takeOver: Bool) {
        self.codec = codec
        self.width = width
        self.height = height
        self.label = label
        self.takeOver = takeOver
    }
}
