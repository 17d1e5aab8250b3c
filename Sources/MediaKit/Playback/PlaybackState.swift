/// Where playback stands: what the session publishes to viewers.
public struct PlaybackState: Sendable, Equatable {
    /// Seconds: the time of the last frame delivered.
    public var position: Double = 0
    /// Seconds; nil for live sources.
    public var duration: Double?
    public var isPlaying: Bool = true
    /// The file reached its end and looping is off.
    public var hasEnded: Bool = false
    public var isLive: Bool
    /// Seconds of the source a second; negative: backward (``Player/setRate(_:)``).
    public var speed: Double
    /// The in/out loop (seconds): playback wraps from its upper bound to its lower; nil: none.
    public var loop: ClosedRange<Double>?
    /// The last error that stopped playback, if any.
    public var error: String?
    /// False while a live source has failed and is being reconnected.
    public var isOnline = true
    /// Why the source is offline (the error that took it down, or the last reconnection's).
    public var offlineReason: String?
    /// When the next reconnection attempt starts; nil while one is under way or when online.
    public var retryAt: ContinuousClock.Instant?
    /// A live input closed because nothing took its frames for ``PlaybackOptions/idleClose``
    /// (offline too, with the reason): it opens again when consumers come back.
    public var isIdle = false

    /// The source delivers (again): no error, online, nothing to retry.
    mutating func markOnline() {
        error = nil
        isOnline = true
        isIdle = false
        offlineReason = nil
        retryAt = nil
    }

    /// Offline for `reason`; the next attempt at `retryAt` (nil: `error` stopped playback for good).
    mutating func markOffline(_ reason: String, retryAt: ContinuousClock.Instant?) {
        isOnline = false
        offlineReason = reason
        self.retryAt = retryAt
    }

    /// Closed while nothing takes the frames, until consumers come back.
    mutating func markIdle() {
        markOffline(Self.idleReason, retryAt: nil)
        isIdle = true
    }

    /// Why an input closed on demand is offline.
    public static let idleReason = "closed while nobody watches; it opens again for the next viewer"
}

/// How to play a source.
public struct PlaybackOptions: Sendable {
    /// 0.1…16; 1 = real time.
    public var speed: Double = 1
    /// Start again from the beginning at the end of a file (default); otherwise stop on the last frame.
    public var loops: Bool = true
    /// Pool size: frames that may be out with the consumer at once, plus one being decoded.
    public var poolCapacity: Int = 4
    /// A live input that can be opened again (a camera, a network stream, the test pattern, not a
    /// shared browser camera) is closed when nothing has taken its frames for this long, and
    /// opened again when something does (see ``Player/setConsumersPresent(_:)``); nil: kept open.
    public var idleClose: Duration?
    /// Frames take the size of the source that plays: a source switched to or reconnected at
    /// another size than the one before gives frames of its own size (from a pool of that size).
    /// Otherwise (`--size`) every source must give frames of the first one's size.
    public var sizeFollowsSource: Bool = false

    public init(speed: Double = 1, loops: Bool = true, idleClose: Duration? = nil) {
        self.speed = speed
        self.loops = loops
        self.idleClose = idleClose
    }

    public static let speedRange: ClosedRange<Double> = 0.1...16
}
