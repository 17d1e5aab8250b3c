/// A viewer's flow control: which frames are in flight, and whether another may go.
struct ViewerFlow {
    /// Most unacknowledged frames in flight; 0 switches acknowledgements off.
    private(set) var window = 2
    /// Sequence of the last frame sent (0: none).
    private(set) var lastSent: UInt64 = 0
    private(set) var framesSent = 0
    /// The frames sent and not yet acknowledged, oldest first (tracked only while a window is
    /// set). The window counts these frames, not sequence numbers: a client skips the frames
    /// encoded while its window was full, so sequences it was sent are not consecutive.
    private var unacknowledged: [(sequence: UInt64, sentAt: ContinuousClock.Instant)] = []
    /// How long the client takes to show a frame: acknowledgement delay minus the network round
    /// trip, smoothed. A client slower than the frame rate gets one frame in flight, not
    /// `window`: a second frame would only wait in its socket buffer and arrive stale.
    private(set) var showTime: Duration = .zero

    /// Whether the window has room for another frame, for a session producing a frame every
    /// `frameInterval`.
    func isOpen(frameInterval: Duration) -> Bool {
        guard window > 0 else { return true }
        let limit = showTime > frameInterval ? 1 : window
        return unacknowledged.count < limit
    }

    /// Most H.264 access units in flight. They cannot be skipped like JPEG frames (each depends on
    /// the one before), so the rule for slow clients is not one in flight but a bounded lag
    /// (``UnitCursor``); this bounds what waits in the socket.
    static let unitWindow = 8

    /// Whether another access unit may go (acknowledgements off: always).
    var isOpenForUnits: Bool { window == 0 || unacknowledged.count < Self.unitWindow }

    /// Records frame `sequence`, written at `instant`.
    mutating func sent(_ sequence: UInt64, at instant: ContinuousClock.Instant) {
        lastSent = sequence
        framesSent += 1
        if window > 0 { unacknowledged.append((sequence, instant)) }
    }

    /// `frameAck {seq}` at `now`: that frame and every earlier one are acknowledged. `roundTrip`
    /// is the connection's network round trip, taken out of the acknowledgement delay; `held`
    /// (the ack's `heldMs`) is how long the client held the frame before acknowledging it, taken
    /// out too: what is returned is the link's part of the delay (nil: the ack named no frame in
    /// flight). The client's show time keeps the holding: it is how long the client takes.
    @discardableResult
    mutating func acknowledge(_ sequence: UInt64, roundTrip: Duration, held: Duration = .zero,
                              now: ContinuousClock.Instant) -> Duration? {
        guard let acknowledged = unacknowledged.last(where: { $0.sequence <= sequence }) else { return nil }
        let sample = max(.zero, acknowledged.sentAt.duration(to: now) - roundTrip)
        showTime = showTime == .zero ? sample : (showTime * 3 + sample) / 4
        unacknowledged.removeAll { $0.sequence <= sequence }
        return max(.zero, sample - held)
    }

    /// How long the oldest frame in flight has waited for its acknowledgement (nil: none).
    func oldestWaiting(now: ContinuousClock.Instant) -> Duration? {
        unacknowledged.first.map { $0.sentAt.duration(to: now) }
    }

    /// Starts over on another stream, whose sequences are its own: nothing sent, nothing in flight.
    mutating func restart() {
        lastSent = 0
        unacknowledged.removeAll()
        showTime = .zero
    }

    /// `flow {window}`; with 0 nothing is tracked.
    mutating func setWindow(_ newWindow: Int) {
        window = newWindow
        if newWindow == 0 { unacknowledged.removeAll() }
    }
}
