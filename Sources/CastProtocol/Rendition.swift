/// One encoding of the session's frames that viewers can be given, as `hello.renditions` lists
/// it: a transport at a size (and, for H.264, a bit rate). Each is encoded once for everybody on
/// it, and only while somebody is.
public struct Rendition: Sendable, Equatable, Codable {
    /// Names it in `watch {rendition}` and metrics, such as `h264-720p`.
    public let id: String
    public let transport: FrameTransport
    public let width: Int
    public let height: Int
    /// H.264: the most bits a second the encoder may spend (its VBV maximum rate); nil for JPEG.
    public let bitsPerSecond: Int?
    /// `true` for a rendition of the preview chain (studio mode), which only controllers may
    /// watch and the server never chooses by itself; nil (not encoded) for the program's.
    public let preview: Bool?

    public init(id: String, transport: FrameTransport, width: Int, height: Int, bitsPerSecond: Int? = nil, preview: Bool = false) {
        self.id = id
        self.transport = transport
        self.width = width
        self.height = height
        self.bitsPerSecond = bitsPerSecond
        self.preview = preview ? true : nil
    }

    /// Whether it shows the preview chain.
    public var isPreview: Bool { preview == true }
}
