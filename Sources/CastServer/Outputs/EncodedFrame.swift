import CastProtocol
import CWebSockets

/// One encoded frame as it goes on the wire: `LWS_PRE` bytes of headroom (lws writes the
/// WebSocket frame header there), the 32-byte FilterCast header, then the JPEG — one buffer,
/// written once by the processing thread and sent to every client from the service thread.
public final class EncodedFrame: @unchecked Sendable {
    /// Headroom before the payload that `lws_write` needs.
    public static let headroom = Int(CWebSockets_LWS_PRE())

    let storage: UnsafeMutableRawPointer
    let capacity: Int
    /// The header as it stands in the payload's first 32 bytes (``setHeader(_:)`` writes both).
    public private(set) var header = FrameHeader(flags: [], sequence: 0, presentationTime: 0, sendTime: 0)
    public internal(set) var jpegCount = 0

    /// A buffer for JPEGs of up to `maximumJPEGSize` bytes.
    init(maximumJPEGSize: Int) {
        capacity = Self.headroom + FrameHeader.size + maximumJPEGSize
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The FilterCast header followed by the JPEG: the binary WebSocket message.
    var payload: UnsafeMutableRawPointer { storage + Self.headroom }
    var payloadCount: Int { FrameHeader.size + jpegCount }

    /// Where the encoder writes the JPEG.
    var jpegDestination: UnsafeMutablePointer<UInt8> {
        (payload + FrameHeader.size).assumingMemoryBound(to: UInt8.self)
    }

    public var jpeg: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: payload + FrameHeader.size, count: jpegCount)
    }

    /// Sets the header and writes it into the payload: the one place its bytes are written.
    func setHeader(_ newHeader: FrameHeader) {
        header = newHeader
        header.write(to: payload)
    }

    /// Stamps the send time into the header just before a write (service thread only).
    func stampSendTime(_ microseconds: Int64) {
        var stamped = header
        stamped.sendTime = microseconds
        setHeader(stamped)
    }
}
