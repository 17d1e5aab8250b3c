import FilterKit

/// What a recording writes while no frame comes (paused, a stalled source): the last picture
/// again at the frame rate, as a camera app does, so that the file lasts as long as the
/// recording ran and shows what the viewers saw. Encoder thread only.
struct HeldPicture {
    /// The last frame handed out, kept (not recycled) until the next one replaces it.
    private var frame: Frame?
    /// Whether the last frame handed out was the held one again.
    private(set) var isRepeating = false
    /// One frame interval of the recording.
    let interval: Duration

    init(frameRate: Double) {
        interval = .seconds(1 / max(frameRate, 1))
    }

    /// The next frame to write: the next one `feed` was offered; once none came for two frame
    /// intervals (a late frame is not a pause), the held one again (its time unchanged: the
    /// writer's ``OutputTimeline`` places it), every interval.
    /// Nil once the feed is closed and drained.
    mutating func next(from feed: EncoderFeed) -> Frame? {
        let wait = frame == nil ? nil : (isRepeating ? interval : interval * 2)
        if let next = feed.next(timeout: wait) {
            release(to: feed)
            frame = next
            isRepeating = false
            return next
        }
        guard frame != nil, !feed.isClosed else { return nil }
        isRepeating = true
        return frame
    }

    /// Gives the held frame back to `feed`'s pool.
    mutating func release(to feed: EncoderFeed) {
        if let frame { feed.recycle(frame) }
        frame = nil
    }
}
