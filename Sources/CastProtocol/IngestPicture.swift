/// One picture of a shared camera (`share`): a binary message from the sharing client.
///
/// The 32-byte header is laid out as ``FrameHeader``'s (little-endian), with magic `FCI1`:
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | `FCI1` (ASCII) |
/// | 4–5 | header length, u16: 32 |
/// | 6–7 | flags, u16 (bit 1: ``keyframe``: an IDR access unit with SPS and PPS, or any JPEG) |
/// | 8–15 | the client's picture sequence, u64 |
/// | 16–23 | capture time, i64 µs on the client's clock: the frames made from it carry it back as their presentation time |
/// | 24–31 | reserved, 0 |
///
/// The encoded picture follows at byte 32 and runs to the end of the message: an H.264 access
/// unit (Annex B, start codes included) or a JPEG, as `share` said.
public struct IngestPicture {
    public static let magic: [UInt8] = Array("FCI1".utf8)
    public static let keyframe = FrameHeader.Flags(rawValue: 2)

    public let header: FrameHeader
    /// The encoded picture (a view of the message).
    public let payload: UnsafeRawBufferPointer

    public var isKeyframe: Bool { header.flags.contains(Self.keyframe) }
    /// µs on the sharing client's clock.
    public var captureTime: Int64 { header.presentationTime }

    /// Reads a binary message; the error says what is wrong with it.
    public static func parse(_ message: UnsafeRawBufferPointer) throws(ProtocolError) -> IngestPicture {
        let (header, payload) = try FrameHeader.ingest(message, magic: magic, carrying: "picture")
        return IngestPicture(header: header, payload: payload)
    }
}
