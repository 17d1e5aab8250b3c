/// A cap on the bits (x264's VBV): at most `bitsPerSecond` on average over any `bufferBits`
/// window, so that no picture — a keyframe least of all — is many frames' worth of bits and
/// stalls a link sized for the rate. Quality within it is constant (``H264Encoder/streamQuality``).
public struct BitRateCap: Sendable, Equatable {
    public var bitsPerSecond: Int
    public var bufferBits: Int

    public init(bitsPerSecond: Int, bufferBits: Int) {
        self.bitsPerSecond = bitsPerSecond
        self.bufferBits = bufferBits
    }
}
