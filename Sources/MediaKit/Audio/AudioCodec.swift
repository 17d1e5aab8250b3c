/// What an ``EncodedAudio`` packet is: Opus for the page's listeners, AAC-LC for recordings and
/// published streams (what MP4 players and media servers take).
public enum AudioCodec: Sendable, Equatable {
    case opus
    case aac
}
