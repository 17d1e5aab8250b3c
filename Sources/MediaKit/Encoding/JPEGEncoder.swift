import CTurboJPEG
import FilterKit

/// Compresses ``Frame``s to baseline JPEG (4:2:0) with TurboJPEG, straight from the YUV planes.
///
/// The TurboJPEG handle and the output buffer are allocated once, for the largest JPEG a frame
/// of the given size can produce, and reused: the steady state allocates nothing. Not
/// thread-safe: one encoder per thread.
public final class JPEGEncoder {
    public let width: Int
    public let height: Int
    /// 1…100.
    public var quality: Int {
        didSet { quality = min(100, max(1, quality)) }
    }

    private let handle: tjhandle
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private let planes = UnsafeMutablePointer<UnsafePointer<UInt8>?>.allocate(capacity: 3)
    private let strides = UnsafeMutablePointer<Int32>.allocate(capacity: 3)

    public init(width: Int, height: Int, quality: Int = 80) throws(MediaError) {
        guard let handle = tjInitCompress() else { throw .encodeFailed(reason: "tjInitCompress failed") }
        let size = tjBufSize(Int32(width), Int32(height), Int32(TJSAMP_420.rawValue))
        guard size > 0, let buffer = tjAlloc(Int32(size)) else {
            tjDestroy(handle)
            throw .encodeFailed(reason: "cannot allocate a JPEG buffer for \(width)x\(height)")
        }
        self.handle = handle
        self.buffer = buffer
        self.capacity = Int(size)
        self.width = width
        self.height = height
        self.quality = min(100, max(1, quality))
    }

    deinit {
        tjFree(buffer)
        tjDestroy(handle)
        planes.deallocate()
        strides.deallocate()
    }

    /// The largest JPEG a frame of this size can produce: what `encode(_:into:)` needs.
    public var maximumSize: Int { capacity }

    /// Encodes `frame` and passes the JPEG bytes to `body`; they are valid only during the call.
    public func encode<R>(_ frame: Frame, _ body: (UnsafeRawBufferPointer) throws -> R) throws -> R {
        let size = try encode(frame, into: buffer)
        return try body(UnsafeRawBufferPointer(start: buffer, count: size))
    }

    /// Encodes `frame` straight into `destination`, which must hold `maximumSize` bytes, and
    /// returns the JPEG's size (the caller's buffer may carry headroom before it, e.g. `LWS_PRE`).
    public func encode(_ frame: Frame, into destination: UnsafeMutablePointer<UInt8>) throws(MediaError) -> Int {
        precondition(frame.width == width && frame.height == height, "frame size does not match the encoder")
        planes[0] = UnsafePointer(frame.y.base)
        planes[1] = UnsafePointer(frame.u.base)
        planes[2] = UnsafePointer(frame.v.base)
        strides[0] = Int32(frame.y.stride)
        strides[1] = Int32(frame.u.stride)
        strides[2] = Int32(frame.v.stride)
        var output: UnsafeMutablePointer<UInt8>? = destination
        var size = UInt(capacity)
        let result = tjCompressFromYUVPlanes(handle, planes, Int32(width), strides, Int32(height),
                                             Int32(TJSAMP_420.rawValue), &output, &size, Int32(quality),
                                             TJFLAG_NOREALLOC)
        guard result == 0, output == destination else {
            throw .encodeFailed(reason: String(cString: tjGetErrorStr2(handle)))
        }
        return Int(size)
    }

    /// Encodes `frame` into a new array (for snapshots and tests; the hot path uses `encode(_:_:)`).
    public func encode(_ frame: Frame) throws -> [UInt8] {
        try encode(frame) { Array($0.bindMemory(to: UInt8.self)) }
    }
}
