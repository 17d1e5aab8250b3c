/// A frame's person matte: how much each pixel is the person (255) or the background (0), at the
/// luma's size and at the chroma's (each chroma sample the mean of its 2×2 luma block), rows
/// packed (`width` and `(width + 1) / 2` bytes apart).
///
/// A view of a ``MatteStage``'s buffers: valid on the thread that asked for it, until it asks for
/// the next matte of a frame of the same size.
public struct Matte {
    public let width: Int
    public let height: Int
    public let luma: UnsafePointer<UInt8>
    public let chroma: UnsafePointer<UInt8>

    /// The chroma planes' width (rows of ``chroma`` are this many bytes apart).
    public var chromaWidth: Int { (width + 1) / 2 }
    public var chromaHeight: Int { (height + 1) / 2 }
}
