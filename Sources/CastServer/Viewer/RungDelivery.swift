/// What one evaluation of a ``RungChooser`` finds in a viewer's last half second of delivery:
/// pure, from the acknowledgement delays (the link's part: the round trip and the time the client
/// held each frame are taken out), the frames there were to deliver, and whether the viewer's
/// socket showed a backlog.
///
/// A lag or a shortfall is the link's only when the socket says so (`linkBacklogged`): a socket
/// that sent everything it was given has a link that carries the rendition, and what is late is
/// the page (its decoder, a busy machine) or the server — not a reason to move.
struct RungDelivery {
    /// The delays of the window, sorted.
    let recent: [Duration]
    /// The lowest delay of the last few seconds.
    let floor: Duration
    /// The share of the frames made that were delivered (nil: too few made to say).
    let delivered: Double?
    let waiting: Duration
    let frameInterval: Duration
    let linkBacklogged: Bool

    init(samples: [RungChooser.Sample], now: ContinuousClock.Instant, expected: Double, waiting: Duration,
         frameInterval: Duration, linkBacklogged: Bool) {
        recent = samples.filter { $0.at.duration(to: now) <= RungChooser.window }.map(\.delay).sorted()
        floor = samples.map(\.delay).min() ?? .zero
        delivered = expected >= RungChooser.minimumExpected ? Double(recent.count) / expected : nil
        self.waiting = waiting
        self.frameInterval = frameInterval
        self.linkBacklogged = linkBacklogged
    }

    private var latest: Duration { recent.last ?? .zero }
    private var median: Duration? { recent.isEmpty ? nil : recent[recent.count / 2] }

    /// A frame `max(50 ms, 2 frames)` over the floor, or one unacknowledged for `max(150 ms, 3
    /// frames)`, on a backlogged link: what fails a probe.
    var lagging: Bool {
        linkBacklogged && (latest > floor + max(.milliseconds(50), frameInterval * 2)
                           || waiting > max(.milliseconds(150), frameInterval * 3))
    }

    /// Stricter, while padding: a frame a frame (at least 30 ms) over the floor — the padding, not
    /// the frames, should take the queue's growth.
    var laggingUnderPadding: Bool {
        lagging || (linkBacklogged && latest > floor + max(.milliseconds(30), frameInterval))
    }

    /// Fewer than 3/4 of the frames made delivered, the oldest unacknowledged one older than
    /// `max(300 ms, 4 frames)`, or the median delay over `max(120 ms, 3 frames)` — on a
    /// backlogged link.
    var congested: Bool {
        linkBacklogged && ((delivered ?? 1) < 0.75 || waiting > max(.milliseconds(300), frameInterval * 4)
                           || (median ?? .zero) > max(.milliseconds(120), frameInterval * 3))
    }

    /// 9/10 of the frames delivered and the median delay within a frame of the floor.
    var healthy: Bool {
        (delivered ?? 1) >= 0.9 && (median.map { $0 <= floor + frameInterval } ?? false)
    }
}
