/// The 40-byte header in front of every H.264 access unit the server sends as a binary message
/// (to viewers that chose the `h264` transport with `watch`).
///
/// Bytes 0–31 are laid out as in ``FrameHeader`` (little-endian), with another magic:
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | `FCH1` (ASCII) |
/// | 4–5 | header length, u16: 40 |
/// | 6–7 | flags, u16 (bit 0: state changed, bit 1: ``keyframe``) |
/// | 8–15 | the rendition's access-unit sequence, u64 (consecutive; a jump only to a keyframe) |
/// | 16–23 | presentation time, i64 µs |
/// | 24–31 | server send time, i64 µs since the Unix epoch |
/// | 32–33 | picture width, u16 |
/// | 34–35 | picture height, u16 |
/// | 36 | the rendition's index in `hello.renditions`, u8 |
/// | 37–39 | reserved, 0 |
///
/// The access unit (Annex B byte stream, start codes included) follows at byte 40; a keyframe
/// is an IDR picture with its SPS and PPS in front, where a decoder may start.
public struct AccessUnitHeader: Sendable, Equatable {
    public static let size = 40
    public static let magic: [UInt8] = Array("FCH1".utf8)
    /// Flag bit 1: an IDR access unit with SPS and PPS, where decoding can start.
    public static let keyframe = FrameHeader.Flags(rawValue: 2)

    /// Flags, sequence and times, as in a JPEG frame's header.
    public var frame: FrameHeader
    /// The decoded picture's size in pixels (the SPS says it too; here a client need not parse it).
    public var width: Int, height: Int
    /// Which of `hello.renditions` the unit belongs to.
    public var rendition: Int

    public init(frame: FrameHeader, width: Int, height: Int, rendition: Int) {
        (self.frame, self.width, self.height, self.rendition) = (frame, width, height, rendition)
    }

    public var isKeyframe: Bool { frame.flags.contains(Self.keyframe) }

    /// Writes the 40 bytes at `destination` (must have room), little-endian.
    public func write(to destination: UnsafeMutableRawPointer) {
        frame.write(to: destination, magic: Self.magic, length: Self.size)
        destination.storeBytes(of: UInt16(clamping: width).littleEndian, toByteOffset: 32, as: UInt16.self)
        destination.storeBytes(of: UInt16(clamping: height).littleEndian, toByteOffset: 34, as: UInt16.self)
        destination.storeBytes(of: UInt8(clamping: rendition), toByteOffset: 36, as: UInt8.self)
        for offset in 37..<40 { destination.storeBytes(of: UInt8(0), toByteOffset: offset, as: UInt8.self) }
    }

    /// Parses a header from the start of `bytes`; nil when too short, wrong magic or length.
    public init?(parsing bytes: UnsafeRawBufferPointer) {
        guard bytes.count >= Self.size, let frame = FrameHeader(parsing: bytes, magic: Self.magic, length: Self.size) else {
            return nil
        }
        self.frame = frame
        width = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt16.self)))
        height = Int(UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 34, as: UInt16.self)))
        rendition = Int(bytes.load(fromByteOffset: 36, as: UInt8.self))
    }
}
