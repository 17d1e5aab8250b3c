import FilterKit

/// A seekable file or URL.
public final class FileSource: SeekableVideoSource {
    public let info: SourceInfo
    private let decoder: Decoder
    private var sequence = 0

    init(decoder: Decoder) {
        self.decoder = decoder
        info = SourceInfo(name: decoder.input, width: decoder.width, height: decoder.height, codec: decoder.codecName,
                          frameRate: decoder.frameRate, duration: decoder.duration, isLive: false)
    }

    public var onWarning: (String) -> Void {
        get { decoder.onWarning }
        set { decoder.onWarning = newValue }
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        guard try decoder.decodeNext(into: frame) != nil else { return false }
        frame.sequence = sequence
        sequence += 1
        return true
    }

    public func seek(to seconds: Double, into frame: Frame) throws(MediaError) {
        guard seconds.isFinite else {
            throw .seekFailed(input: info.name, seconds: seconds, reason: "the position must be a finite number")
        }
        _ = try decoder.seek(to: seconds, into: frame)
        let rate = info.frameRate ?? 30
        sequence = Int((frame.time * rate).rounded())
        frame.sequence = sequence
        sequence += 1
    }
}
