/// Gives each decoded frame its presentation timestamp (stream ticks), also when the container
/// gives none. Pure: the decoder feeds it what the packets and frames carry.
///
/// A frame with a presentation time gets FFmpeg's best-effort guess. A frame without one (AVI,
/// raw streams) carries only its packet's decode time, which FFmpeg's guess would use: late by
/// the B-frame delay, and none at all for the frames drained at the end. Such frames are
/// counted instead: from the first keyframe packet after the open or a seek (the decoder's
/// first picture), one frame later per frame. Before a keyframe's time is known the count
/// starts at the stream's start after the open, and is unknown after a seek (a file without
/// an index may seek to any frame).
struct TimestampReconstruction: Equatable {
    /// The stream's first timestamp: where the count starts after the open.
    let startTimestamp: Int64
    /// One frame's duration in ticks (≥ 1).
    let ticksPerFrame: Int64
    /// The timestamp the next frame without a presentation time gets.
    private(set) var counted: Int64?
    /// Whether `counted` waits for the first keyframe packet after the open or a seek.
    private var countingFromNextKeyframe = true
    /// Whether a seek came since the open: until a keyframe says where it landed, the count
    /// cannot start from the stream's start.
    private var hasSought = false

    /// `frameRate` in frames a second (30 when unknown), `timeBase` in seconds a tick.
    init(startTimestamp: Int64, frameRate: Double?, timeBase: Double) {
        self.startTimestamp = startTimestamp
        ticksPerFrame = Int64(max(1, (1 / ((frameRate ?? 30) * timeBase)).rounded()))
    }

    /// A packet is sent to the decoder: the first keyframe after the open or a seek starts the
    /// count at its decode time (else its presentation time; nil: not known).
    mutating func packetSent(isKeyframe: Bool, decodeTime: Int64?, presentationTime: Int64?) {
        guard countingFromNextKeyframe, isKeyframe else { return }
        countingFromNextKeyframe = false
        if let time = decodeTime ?? presentationTime { counted = time }
    }

    /// The timestamp of the frame just decoded (nil when unknown), given its presentation time
    /// and FFmpeg's best-effort guess (nil: none); the count moves one frame past it.
    mutating func frameDecoded(presentationTime: Int64?, bestEffort: Int64?) -> Int64? {
        let timestamp: Int64?
        if presentationTime != nil, let bestEffort {
            timestamp = bestEffort
        } else {
            timestamp = counted ?? (hasSought ? nil : startTimestamp)
        }
        counted = timestamp.map { $0 &+ ticksPerFrame }
        return timestamp
    }

    /// The input was sought: the count waits for the next keyframe again.
    mutating func sought() {
        countingFromNextKeyframe = true
        counted = nil
        hasSought = true
    }
}
