import FilterKit

/// A live source — the test pattern, a camera, a network stream: endless, with no timeline.
/// Its end is an error: a live stream that stops has failed.
public final class LiveSource: VideoSource {
    public let info: SourceInfo
    private let decoder: Decoder

    init(decoder: Decoder, name: String) {
        self.decoder = decoder
        info = SourceInfo(name: name, width: decoder.width, height: decoder.height, codec: decoder.codecName,
                          frameRate: decoder.frameRate, duration: nil, isLive: true)
    }

    public var interruption: Interruption { decoder.interruption }

    public var onWarning: (String) -> Void {
        get { decoder.onWarning }
        set { decoder.onWarning = newValue }
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        guard try decoder.decodeNext(into: frame) else { throw ended }
        return true
    }

    public func read(into picture: DecodedPicture) throws(MediaError) -> Bool {
        guard try decoder.decodeNext(into: picture) else { throw ended }
        return true
    }

    private var ended: MediaError { .readFailed(input: info.name, reason: "the live stream ended") }
}
