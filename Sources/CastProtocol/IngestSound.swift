/// One packet of a shared camera's microphone (`share` with `audio`): a binary message from the
/// sharing client, laid out as ``IngestPicture``'s with magic `FCM1`:
///
/// | bytes | field |
/// |---|---|
/// | 0–3 | `FCM1` (ASCII) |
/// | 4–5 | header length, u16: 32 |
/// | 6–7 | flags, u16: 0 |
/// | 8–15 | the client's packet sequence, u64 |
/// | 16–23 | capture time of the packet's first sample, i64 µs on the clock of the pictures' capture times |
/// | 24–31 | reserved, 0 |
///
/// One Opus packet (as WebCodecs' `AudioEncoder` gives it: no container) follows at byte 32 and
/// runs to the end of the message, at most ``maximumPacketBytes``.
public struct IngestSound {
    public static let magic: [UInt8] = Array("FCM1".utf8)
    /// The largest Opus packet taken: a 20 ms packet is at most 1275 bytes, and this leaves room
    /// for packets of several frames; anything larger is refused (`too_large`) and dropped.
    public static let maximumPacketBytes = 4000

    public let header: FrameHeader
    /// The Opus packet (a view of the message).
    public let payload: UnsafeRawBufferPointer

    /// µs on the sharing client's clock, the pictures' one.
    public var captureTime: Int64 { header.presentationTime }

    /// Whether `message` claims to be a microphone packet (its magic), to be read with ``parse(_:)``.
    public static func isSound(_ message: UnsafeRawBufferPointer) -> Bool {
        message.count >= magic.count && message.prefix(magic.count).elementsEqual(magic)
    }

    /// Reads a binary message; the error says what is wrong with it (`too_large`: the packet is
    /// over ``maximumPacketBytes``, dropped; `invalid_argument`: not a microphone packet at all).
    public static func parse(_ message: UnsafeRawBufferPointer) throws(ProtocolError) -> IngestSound {
        let (header, payload) = try FrameHeader.ingest(message, magic: magic, carrying: "Opus packet")
        guard payload.count <= maximumPacketBytes else {
            throw ProtocolError(code: .tooLarge, message: "an FCM1 Opus packet of \(payload.count) bytes is over the limit "
                + "of \(maximumPacketBytes) bytes (dropped)")
        }
        return IngestSound(header: header, payload: payload)
    }
}
