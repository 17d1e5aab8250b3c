import Telemetry

/// How much a channel's decoders keep of the pictures their seeks decoded (``DecodedPictureCache``,
/// for the frame steps after a seek) and what that cache did: shared by every decoder the channel
/// opens (its input, the files it plays), so `/metrics` sees one figure whichever plays.
public final class StepCacheBudget: Sendable {
    /// The most bytes of pictures a decoder keeps (0: none).
    public let capacityBytes: Int
    /// Bytes held now by the decoder that plays.
    public let heldBytes = Gauge()
    /// Pictures a seek or a step took from the cache, and those it had to decode.
    public let hits = Counter()
    public let misses = Counter()

    public init(capacityBytes: Int = 256 << 20) {
        self.capacityBytes = capacityBytes
    }
}
