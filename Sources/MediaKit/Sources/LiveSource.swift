import FilterKit

/// A live source — the test pattern, a camera, a network stream: endless, with no timeline.
public final class LiveSource: VideoSource {
    public let info: SourceInfo
    private let decoder: Decoder
    private var sequence = 0

    init(decoder: Decoder, name: String) {
        self.decoder = decoder
        info = SourceInfo(name: name, width: decoder.width, height: decoder.height, codec: decoder.codecName,
                          frameRate: decoder.frameRate, duration: nil, isLive: true)
    }

    public var onWarning: (String) -> Void {
        get { decoder.onWarning }
        set { decoder.onWarning = newValue }
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        guard try decoder.decodeNext(into: frame) != nil else {
            throw .readFailed(input: info.name, reason: "the live stream ended")
        }
        frame.sequence = sequence
        sequence += 1
        return true
    }
}
