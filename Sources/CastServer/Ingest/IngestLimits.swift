/// What a shared camera may send (`share`): every resource a sharer makes us allocate is bounded.
public struct IngestLimits: Sendable, Equatable {
    /// `--max-ingest-bitrate`: bits a second, over a two-second window (a keyframe may burst).
    public var bitsPerSecond = 8_000_000
    /// Pictures a second, over the same window.
    public var framesPerSecond = 60
    /// Microphone packets a second, over the same window: 20 ms packets are 50, 10 ms ones 100.
    public static let soundPacketsPerSecond = 100
    /// The largest picture message, header included.
    public static let maximumMessageBytes = 1 << 20
    /// A sharer that sends nothing for this long is gone: the source from before comes back.
    public static let silence = Duration.seconds(3)

    public init() {}

    /// Why a camera of `width × height` cannot be the source of a session whose frames are at
    /// most `largest` (``Session/largestFrame``, or with `--size` the session's size), or nil: at
    /// most its pixels, and no side longer than its longer side (a phone held upright sends
    /// 720x1280 to a 1280x720 session).
    func refusal(width: Int, height: Int, largest: (width: Int, height: Int)) -> String? {
        let longest = max(largest.width, largest.height)
        guard width * height > largest.width * largest.height || max(width, height) > longest else { return nil }
        return "share.width × share.height must be at most \(largest.width)x\(largest.height) "
            + "(or the same turned upright), got \(width)x\(height)"
    }
}
