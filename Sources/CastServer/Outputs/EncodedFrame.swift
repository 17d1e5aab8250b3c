import CastProtocol

/// One encoded frame as it goes on the wire: `LWS_PRE` bytes of headroom (lws writes the
/// WebSocket frame header there), the FilterCast header, then the body — a JPEG behind the
/// 32-byte ``FrameHeader``, or an H.264 access unit behind the 40-byte ``AccessUnitHeader`` —
/// in one buffer, written once by the thread that encodes and sent to every client from the
/// service thread.
public final class EncodedFrame: @unchecked Sendable {
    /// Headroom before the payload that `lws_write` needs: `LWS_PRE`, 16 on 64-bit lws 4 (the
    /// adapter checks it against its lws when it starts).
    public static let headroom = 16

    /// The header's own fields besides the frame's, for an access unit (nil: a JPEG).
    struct Picture: Equatable {
        var width: Int
        var height: Int
        var rendition: Int
    }

    private(set) var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int
    /// Set for an access unit: its header is an ``AccessUnitHeader`` with these fields (changed
    /// only while no other thread can see the buffer, as ``reserve(bodySize:)``).
    var picture: Picture?
    /// A 32-byte header's magic (`FCF1` for a JPEG, `FCA1` for sound).
    let magic: [UInt8]
    /// The header as it stands in the payload's first bytes (``setHeader(_:)`` writes both).
    public private(set) var header = FrameHeader(flags: [], sequence: 0, presentationTime: 0, sendTime: 0)
    public internal(set) var bodyCount = 0

    /// A buffer for bodies of up to `maximumBodySize` bytes (``reserve(bodySize:)`` grows it);
    /// `picture` for an access unit's header, else a 32-byte header with `magic`.
    init(maximumBodySize: Int, picture: Picture? = nil, magic: [UInt8] = FrameHeader.magic) {
        self.picture = picture
        self.magic = magic
        capacity = Self.headroom + AccessUnitHeader.size + maximumBodySize
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// The header's length: where the body starts in the payload.
    var headerLength: Int { picture == nil ? FrameHeader.size : AccessUnitHeader.size }

    /// The FilterCast header followed by the body: the binary WebSocket message.
    var payload: UnsafeMutableRawPointer { storage + Self.headroom }
    var payloadCount: Int { headerLength + bodyCount }

    /// Where the encoder writes the body.
    var bodyDestination: UnsafeMutablePointer<UInt8> {
        (payload + headerLength).assumingMemoryBound(to: UInt8.self)
    }

    public var body: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: payload + headerLength, count: bodyCount)
    }

    /// Room for a body of `bodySize` bytes (the contents are not kept). Only while no other
    /// thread can see the buffer.
    func reserve(bodySize: Int) {
        let needed = Self.headroom + headerLength + bodySize
        guard needed > capacity else { return }
        storage.deallocate()
        capacity = max(needed, capacity * 3 / 2)
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    /// Sets the header and writes it into the payload: the one place its bytes are written.
    func setHeader(_ newHeader: FrameHeader) {
        header = newHeader
        if let picture {
            AccessUnitHeader(frame: newHeader, width: picture.width, height: picture.height, rendition: picture.rendition)
                .write(to: payload)
        } else {
            header.write(to: payload, magic: magic, length: FrameHeader.size)
        }
    }

    /// Stamps the send time into the header just before a write (service thread only).
    func stampSendTime(_ microseconds: Int64) {
        var stamped = header
        stamped.sendTime = microseconds
        setHeader(stamped)
    }
}

/// `bytes` with `EncodedFrame.headroom` zero bytes in front, as `lws_write` wants.
package func withHeadroom(_ bytes: [UInt8]) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: EncodedFrame.headroom)
    buffer.append(contentsOf: bytes)
    return buffer
}
