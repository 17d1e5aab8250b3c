/// How frames reach a `/ws` viewer: the encoding of its binary messages.
public enum FrameTransport: String, Sendable, Codable, CaseIterable {
    /// One JPEG per message behind the 32-byte ``FrameHeader`` (`FCF1`): any client can show it,
    /// and a client that never says `watch` gets it.
    case jpeg
    /// One H.264 access unit (Annex B) per message behind the 40-byte ``AccessUnitHeader``
    /// (`FCH1`), in decoding order: for clients with a decoder (WebCodecs `VideoDecoder`).
    case h264
}
