extension FrameHeader {
    /// Splits a binary message of a sharing client into its 32-byte header with `magic` and what
    /// follows it (`what`: the picture, the Opus packet), which may not be empty; the error says
    /// what is wrong, for the sharer to read.
    static func ingest(_ message: UnsafeRawBufferPointer, magic: [UInt8], carrying what: String)
        throws(ProtocolError) -> (FrameHeader, UnsafeRawBufferPointer) {
        let name = String(decoding: magic, as: UTF8.self)
        guard let header = FrameHeader(parsing: message, magic: magic, length: FrameHeader.size) else {
            throw ProtocolError(code: .invalidArgument, message: "a binary message must be a picture of the shared camera "
                + "(a 32-byte FCI1 header, then the picture) or a packet of its microphone (FCM1, then the Opus packet); "
                + "this one is not a valid \(name) message (\(message.count) bytes given)")
        }
        guard message.count > FrameHeader.size else {
            throw ProtocolError(code: .invalidArgument, message: "the \(name) message carries no \(what)")
        }
        return (header, UnsafeRawBufferPointer(rebasing: message[FrameHeader.size...]))
    }
}
