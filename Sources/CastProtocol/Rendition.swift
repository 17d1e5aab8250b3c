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
    /// watch and the server never chooses by itself; nil (not encoded) for the others.
    public let preview: Bool?
    /// `true` for a rendition of the source's picture before the chain (the compare view's
    /// "before"), which anybody who may watch may watch and the server never chooses by itself;
    /// nil (not encoded) for the others.
    public let source: Bool?

    public init(id: String, transport: FrameTransport, width: Int, height: Int, bitsPerSecond: Int? = nil,
                second: SecondPicture? = nil) {
        self.id = id
        self.transport = transport
        self.width = width
        self.height = height
        self.bitsPerSecond = bitsPerSecond
        self.preview = second == .preview ? true : nil
        self.source = second == .source ? true : nil
    }

    /// Which second picture it shows; nil for the program's renditions.
    public var second: SecondPicture? {
        preview == true ? .preview : source == true ? .source : nil
    }

    /// Whether it shows the preview chain.
    public var isPreview: Bool { second == .preview }

    /// Whether it shows the program (what the server gives a viewer that chose nothing, and moves
    /// viewers between).
    public var isProgram: Bool { second == nil }
}

/// A picture of the session besides the program, offered as renditions of its own (JPEG at the
/// JPEG rungs' sizes, `KIND-HEIGHTp`) and encoded only while somebody watches one: the picture a
/// page shows beside or against the program.
public enum SecondPicture: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The preview chain's picture (studio mode): controllers only.
    case preview
    /// The source frame before any chain (the compare view's "before"): anybody who may watch.
    case source
}
