import FilterKit

/// A seekable file or URL.
public final class FileSource: SeekableVideoSource {
    public let info: SourceInfo
    private let decoder: Decoder

    init(decoder: Decoder) {
        self.decoder = decoder
        info = SourceInfo(decoder: decoder, name: decoder.input, isLive: false)
    }

    public var interruption: Interruption { decoder.interruption }

    public var onWarning: (String) -> Void {
        get { decoder.onWarning }
        set { decoder.onWarning = newValue }
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        try decoder.decodeNext(into: frame)
    }

    public func read(into picture: DecodedPicture) throws(MediaError) -> Bool {
        try decoder.decodeNext(into: picture)
    }

    public func seek(to seconds: Double, into frame: Frame) throws(MediaError) {
        guard seconds.isFinite else {
            throw .seekFailed(input: info.name, seconds: seconds, reason: "the position must be a finite number")
        }
        _ = try decoder.seek(to: seconds, into: frame)
    }
}
