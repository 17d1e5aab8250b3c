/// A video frame in planar 8-bit YUV 4:2:0, full range, BT.601 — the colour space of JFIF, so
/// frames go to the JPEG encoder as they are. Sources convert whatever they decode into this.
///
/// Chroma planes are `ceil(width/2) × ceil(height/2)`. Rows are 64-byte aligned.
///
/// Ownership: a frame has one owner at a time. It is handed between threads only through a
/// synchronised hand-off (``FrameMailbox``) and then touched by the receiver alone, which is
/// why it may be `@unchecked Sendable`. Frames come from a ``FramePool`` and go back to it.
public final class Frame: @unchecked Sendable {
    public let width: Int
    public let height: Int
    public let y: Plane
    public let u: Plane
    public let v: Plane
    /// Presentation time in seconds from the start of the source.
    public var time: Double = 0
    /// The source's frame number, counted from 0 after each open or seek.
    public var sequence: Int = 0
    /// True for the first frame after a seek: it does not continue from the frame before.
    public var isDiscontinuity = false

    /// The samples' memory; nil for a band view, which borrows its parent's.
    private let storage: UnsafeMutableRawPointer?

    static let rowAlignment = 64

    public init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "frame size must be positive")
        self.width = width
        self.height = height
        let chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let lumaStride = Frame.aligned(width), chromaStride = Frame.aligned(chromaWidth)
        let lumaBytes = lumaStride * height, chromaBytes = chromaStride * chromaHeight
        let memory = UnsafeMutableRawPointer.allocate(byteCount: lumaBytes + 2 * chromaBytes, alignment: Frame.rowAlignment)
        storage = memory
        let bytes = memory.assumingMemoryBound(to: UInt8.self)
        y = Plane(base: bytes, width: width, height: height, stride: lumaStride)
        u = Plane(base: bytes + lumaBytes, width: chromaWidth, height: chromaHeight, stride: chromaStride)
        v = Plane(base: bytes + lumaBytes + chromaBytes, width: chromaWidth, height: chromaHeight, stride: chromaStride)
    }

    /// A view of the luma rows `rows` of `parent` and of the chroma rows under them: writes
    /// through the view change the parent, which must outlive it. `rows` must start on an even
    /// row, so that each chroma row belongs to one view.
    init(rows: Range<Int>, of parent: Frame) {
        precondition(rows.lowerBound % 2 == 0 && !rows.isEmpty && rows.upperBound <= parent.height,
                     "a band starts on an even row inside the frame")
        width = parent.width
        height = rows.count
        storage = nil
        let chroma = Partition.chromaRows(under: rows)
        y = parent.y.rows(rows)
        u = parent.u.rows(chroma)
        v = parent.v.rows(chroma)
    }

    deinit { storage?.deallocate() }

    /// The three planes, luma first.
    public var planes: [Plane] { [y, u, v] }

    /// Plane `index` of ``planes``, without making the array.
    public func plane(_ index: Int) -> Plane {
        precondition((0..<3).contains(index), "a frame has three planes")
        return index == 0 ? y : index == 1 ? u : v
    }

    /// Copies pixels and timing from `other`, which must have the same size.
    public func copy(from other: Frame) {
        y.copy(from: other.y)
        u.copy(from: other.u)
        v.copy(from: other.v)
        copyTiming(from: other)
    }

    /// Takes `other`'s time, sequence and discontinuity (a scaled copy of it, say).
    public func copyTiming(from other: Frame) {
        time = other.time
        sequence = other.sequence
        isDiscontinuity = other.isDiscontinuity
    }

    private static func aligned(_ n: Int) -> Int { (n + rowAlignment - 1) / rowAlignment * rowAlignment }
}
