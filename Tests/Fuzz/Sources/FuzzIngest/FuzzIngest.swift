import CastProtocol

/// One binary message of a sharing client, as `Session.ingest` reads it. A message is a picture
/// exactly when it is longer than 32 bytes, starts with `FCI1` and says header length 32; then
/// its payload is the rest of the message (a view into it, never empty) and its header writes
/// back to the message's first 32 bytes. Anything else is refused as an invalid argument whose
/// message names FCI1 (it quotes nothing of the input, so it cannot break the error's JSON).
func fuzzIngest(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let message = UnsafeRawBufferPointer(start: data, count: size)
    let isPicture = size > FrameHeader.size && message.prefix(4).elementsEqual(IngestPicture.magic)
        && message[4] == 32 && message[5] == 0
    let picture: IngestPicture
    do {
        picture = try IngestPicture.parse(message)
    } catch {
        precondition(!isPicture, "a well-formed picture of \(size) bytes refused: \(error.message)")
        precondition(error.code == .invalidArgument && error.message.contains("FCI1"), "unclear error: \(error.message)")
        return 0
    }
    precondition(isPicture, "\(size) bytes that are no FCI1 picture were taken")
    precondition(!picture.payload.isEmpty && picture.payload.baseAddress == message.baseAddress! + FrameHeader.size
                 && picture.payload.count == size - FrameHeader.size, "the payload is not the rest of the message")
    var written = [UInt8](repeating: 0, count: FrameHeader.size)
    written.withUnsafeMutableBytes { picture.header.write(to: $0.baseAddress!, magic: IngestPicture.magic, length: FrameHeader.size) }
    precondition(written.elementsEqual(message.prefix(FrameHeader.size)), "the header does not read back")
    precondition(picture.isKeyframe == (message[6] & 2 != 0), "keyframe flag misread")
    return 0
}
