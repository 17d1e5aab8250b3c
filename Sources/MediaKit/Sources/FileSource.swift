import FilterKit

/// A seekable file or URL.
public final class FileSource: DecodedSource, SeekableVideoSource {
    /// The file as opened; nil for a URL.
    private let identity: FileIdentity?

    init(decoder: Decoder) {
        identity = FileIdentity(path: decoder.input)
        super.init(decoder: decoder, info: SourceInfo(decoder: decoder, name: decoder.input, isLive: false))
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

    public var keepsPlayedPictures: Bool {
        get { decoder.keepsPlayedPictures }
        set { decoder.keepsPlayedPictures = newValue }
    }

    public var playsBackward: Bool {
        get { decoder.stepCache.keepsEarlier }
        set { decoder.stepCache.keepsEarlier = newValue }
    }

    public var preparesLoopIn: Double? {
        didSet { if preparesLoopIn != oldValue { loopIn = preparesLoopIn.map(LoopInPreparation.init) } }
    }
    private var loopIn: LoopInPreparation?

    public func decodeAhead() -> Bool {
        if playsBackward {
            // A failure is the next step's to meet (see the protocol).
            do throws(MediaError) { return try decoder.decodeBehind() } catch { return false }
        }
        // A second decoder only for a file here: opening a URL's could block the decode thread.
        guard identity != nil, let loopIn else { return false }
        return loopIn.step(for: decoder)
    }

    public func verifyUnchanged() throws(MediaError) {
        guard let identity else { return }
        guard let now = FileIdentity(path: decoder.input) else {
            throw .readFailed(input: info.name, reason: "the file was deleted")
        }
        guard now == identity else {
            throw .readFailed(input: info.name, reason: "the file was replaced or changed while playing")
        }
    }
}
