import CastProtocol
import Foundation
import MediaKit

/// What the server knows about one connection. Touched only on the network (service) thread.
final class Connection {
    enum Kind {
        /// A `/ws` client: protocol v1.
        case viewer
        /// A `GET /stream.mjpg` reader.
        case mjpeg
        /// A one-off HTTP response waiting to be written.
        case response
        /// A `GET /snapshot.jpg` waiting for a fresh frame (none is encoded while nobody watches).
        case snapshot(headOnly: Bool)
        /// A file being sent (the page's files, a recording).
        case file(FileDownload)
    }

    let kind: Kind
    let address: String
    let connectedAt = ContinuousClock.now

    // Viewers
    /// May send control commands (always, without `--token`).
    var authorized: Bool
    /// Most unacknowledged frames in flight; 0 switches acknowledgements off.
    var window = 2
    /// Sequence of the last frame sent (0: none).
    var lastSent: UInt64 = 0
    /// The frames sent and not yet acknowledged, oldest first (tracked only while a window is
    /// set). The window counts these frames, not sequence numbers: a client skips the frames
    /// encoded while its window was full, so sequences it was sent are not consecutive.
    var unacknowledged: [(sequence: UInt64, sentAt: ContinuousClock.Instant)] = []
    /// How long the client takes to show a frame: acknowledgement delay minus the network round
    /// trip, smoothed. A client slower than the frame rate gets one frame in flight, not
    /// `window`: a second frame would only wait in its socket buffer and arrive stale.
    var showTime: Duration = .zero
    var framesSent = 0
    /// Text messages waiting to be written, each with `EncodedFrame.headroom` bytes in front.
    var pendingText: [[UInt8]] = []
    /// A fresh `state` is due (coalesced: only the newest state is ever sent).
    var stateDue = false
    /// Fragments of the message being received.
    var incoming: [UInt8] = []
    var commandBudget = CommandBudget()
    /// Set when the connection is to be closed at its next writable callback.
    var closing: (status: Int32, reason: String)?
    /// Write the pending text (the error that explains the close) before closing.
    var flushBeforeClosing = false

    // HTTP responses and MJPEG
    /// The body to write (with headroom in front), for `.response`.
    var body: [UInt8]?
    var headOnly = false
    /// Reused buffer for MJPEG parts.
    var partBuffer: [UInt8] = []

    init(kind: Kind, address: String, authorized: Bool) {
        self.kind = kind
        self.address = address
        self.authorized = authorized
    }

    var isViewer: Bool {
        if case .viewer = kind { return true }
        return false
    }

    /// How logs and metrics name the kind.
    var kindName: String {
        switch kind {
        case .viewer: "viewer"
        case .mjpeg: "mjpeg"
        case .response: "response"
        case .snapshot: "snapshot"
        case .file: "file"
        }
    }

    /// Whether frames must be encoded for this connection.
    var wantsFrames: Bool {
        switch kind {
        case .response, .file: false
        case .viewer, .mjpeg, .snapshot: true
        }
    }

    /// Whether the flow-control window has room for another frame, for a session producing a
    /// frame every `frameInterval`.
    func windowOpen(frameInterval: Duration) -> Bool {
        guard window > 0 else { return true }
        let limit = showTime > frameInterval ? 1 : window
        return unacknowledged.count < limit
    }

    /// Records a frame written to this viewer.
    func sent(_ sequence: UInt64, at instant: ContinuousClock.Instant = .now) {
        lastSent = sequence
        framesSent += 1
        if window > 0 { unacknowledged.append((sequence, instant)) }
    }

    /// `frameAck {seq}`: that frame and every earlier one are acknowledged. `roundTrip` is the
    /// connection's network round trip, taken out of the acknowledgement delay.
    func acknowledge(_ sequence: UInt64, roundTrip: Duration, now: ContinuousClock.Instant = .now) {
        guard let acknowledged = unacknowledged.last(where: { $0.sequence <= sequence }) else { return }
        let sample = max(.zero, acknowledged.sentAt.duration(to: now) - roundTrip)
        showTime = showTime == .zero ? sample : (showTime * 3 + sample) / 4
        unacknowledged.removeAll { $0.sequence <= sequence }
    }

    /// `flow {window}`; with 0 nothing is tracked.
    func setWindow(_ newWindow: Int) {
        window = newWindow
        if newWindow == 0 { unacknowledged.removeAll() }
    }

    /// Most text messages waiting for a client: a reply to every command of a full command
    /// budget (a burst a client may send in one go) plus a few of the server's own.
    static let maximumPendingText = Int(CommandBudget.capacity) + 16

    func enqueue(_ message: ServerMessage) {
        // Bounded: a client that never lets us write gets closed rather than growing a queue.
        guard pendingText.count < Self.maximumPendingText else {
            closing = (Int32(LWSCloseStatus.policyViolation), "too many unsent messages")
            return
        }
        pendingText.append(withHeadroom(message.encoded()))
    }
}

/// Rate limit for client commands: a bucket of `capacity` tokens refilled at `perSecond`.
struct CommandBudget {
    static let capacity = 120.0
    static let perSecond = 60.0
    /// Refusals in one episode after which the client is disconnected.
    static let refusalsBeforeClosing = 500
    private var tokens = capacity
    private var updated = ContinuousClock.now
    /// Commands refused since the bucket was last full: one episode of going over the budget.
    /// Not reset by the odd token that trickles back, so a sustained flood (which keeps winning
    /// one command every 1/`perSecond` s) still adds up; a client that calms down long enough
    /// for the bucket to refill starts afresh.
    private(set) var refusedInEpisode = 0

    mutating func spend(now: ContinuousClock.Instant = .now) -> Bool {
        tokens = min(Self.capacity, tokens + updated.duration(to: now).seconds * Self.perSecond)
        updated = now
        if tokens >= Self.capacity { refusedInEpisode = 0 }
        guard tokens >= 1 else {
            refusedInEpisode += 1
            return false
        }
        tokens -= 1
        return true
    }

    /// Whether the client has been refused so often in this episode that it is to be closed.
    var exhausted: Bool { refusedInEpisode > Self.refusalsBeforeClosing }
}

/// WebSocket close codes used here (RFC 6455).
enum LWSCloseStatus {
    static let goingAway = 1001
    static let policyViolation = 1008
    static let messageTooBig = 1009
}

/// `bytes` with `EncodedFrame.headroom` zero bytes in front, as `lws_write` wants.
func withHeadroom(_ bytes: [UInt8]) -> [UInt8] {
    var buffer = [UInt8](repeating: 0, count: EncodedFrame.headroom)
    buffer.append(contentsOf: bytes)
    return buffer
}
