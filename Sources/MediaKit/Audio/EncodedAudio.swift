/// One encoded audio packet as the audio thread hands it out: valid only during the call it is
/// given to (its bytes are the encoder's packet, reused for the next one).
public struct EncodedAudio {
    public let codec: AudioCodec
    /// Seconds in the source, on the pictures' clock: where the packet's first sample plays.
    public let time: Double
    /// Seconds of sound it holds (0.02 for Opus, 1024 samples for AAC, but for the last packet of a stream).
    public let duration: Double
    /// The first packet after a restart (the start, a seek, a new source, a gap, the encoder turned on).
    public let isDiscontinuity: Bool
    public let bytes: UnsafeRawBufferPointer
}
