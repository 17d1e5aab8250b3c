/// How long the H.264 encoder waits for a newer picture before it takes the one it holds for a
/// still and refines it (``LiveVideoEncoder``): half again the interval pictures really come at
/// — the median of the last few gaps between them — and never less than half again the
/// stream's frame interval. A source that declares 15 fps but changes its picture every 400 ms
/// (an AVI that repeats frames) is then not refined between its pictures, which would send
/// H.264 units for a picture that did not change; a paused one is, once its picture stays.
/// Pure: the caller gives the times. Encoder thread only.
struct StillWait {
    /// Gaps counted: the last few.
    static let gapsKept = 5
    /// A gap longer than this (a pause, a stall) counts as this long: the wait stays short
    /// enough that a paused picture sharpens within a second or so.
    static let longestGap = Duration.milliseconds(700)

    /// The stream's frame interval.
    let interval: Duration
    private var gaps: [Duration] = []
    private var lastArrival: ContinuousClock.Instant?

    init(interval: Duration) { self.interval = interval }

    /// A new picture came at `now`.
    mutating func arrived(at now: ContinuousClock.Instant) {
        if let lastArrival {
            gaps.append(min(lastArrival.duration(to: now), Self.longestGap))
            if gaps.count > Self.gapsKept { gaps.removeFirst() }
        }
        lastArrival = now
    }

    /// How long to wait for the next picture before refining the one held.
    var timeout: Duration {
        let cadence = gaps.sorted().dropFirst(gaps.count / 2).first ?? interval
        return max(interval, cadence) * 3 / 2
    }
}
