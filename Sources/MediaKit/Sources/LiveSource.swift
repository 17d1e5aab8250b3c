import FilterKit

/// A live source — the test pattern, a camera, a network stream: endless, with no timeline.
/// Its end is an error: a live stream that stops has failed, and so has one that gives no frame
/// for `stallTimeout`.
public final class LiveSource: DecodedSource, VideoSource {
    private let stallTimeout: Duration

    init(decoder: Decoder, name: String, stallTimeout: Duration) {
        self.stallTimeout = stallTimeout
        super.init(decoder: decoder, info: SourceInfo(decoder: decoder, name: name, isLive: true))
    }

    public func read(into frame: Frame) throws(MediaError) -> Bool {
        try watched { () throws(MediaError) in try decoder.decodeNext(into: frame) }
    }

    public func read(into picture: DecodedPicture) throws(MediaError) -> Bool {
        try watched { () throws(MediaError) in try decoder.decodeNext(into: picture) }
    }

    /// Runs `read` under the stall watchdog; the end of the stream is an error.
    private func watched(_ read: () throws(MediaError) -> Bool) throws(MediaError) -> Bool {
        interruption.arm(for: stallTimeout)
        defer { interruption.disarm() }
        do throws(MediaError) {
            guard try read() else { throw MediaError.readFailed(input: info.name, reason: "the live stream ended") }
            return true
        } catch {
            if interruption.hasTimedOut && !interruption.isRequested {
                throw .readFailed(input: info.name, reason: "no frame for \(stallTimeout.secondsText) s")
            }
            throw error
        }
    }
}
