import CastProtocol

/// The one thing to write to a viewer at a writable callback.
enum ViewerWrite: Equatable {
    /// A text message, with `EncodedFrame.headroom` bytes in front.
    case text([UInt8])
    /// A `state` message with the state now (the transport encodes it: only it knows the state).
    case state
    /// The latest frame of the JPEG rendition `rendition` (its index in the offer; newer than the
    /// last one sent); report it with `ViewerSession.frameSent`.
    case frame(rendition: Int)
    /// Access unit `sequence` of the H.264 rendition `rendition` (its index in the offer); report
    /// it with `ViewerSession.frameSent`.
    case unit(rendition: Int, sequence: UInt64)
    /// A padding message with `bytes` of padding (a padded probe); report it with
    /// `ViewerSession.paddingSent`.
    case padding(bytes: Int)
    /// Sound packet `sequence` (``ViewerAudio``); report it with `ViewerSession.audioSent`.
    case audio(sequence: UInt64)
    /// Close the connection with this code and reason.
    case close(status: Int32, reason: String)
    case nothing
}

/// What a viewer is due before frames: its text messages, a `state`, a close.
struct ViewerOutbox {
    /// Most text messages waiting for a client: a reply to every command of a full command
    /// budget (a burst a client may send in one go) plus a few of the server's own.
    static let maximumPendingText = Int(CommandBudget.capacity) + 16

    /// Text messages waiting to be written, each with `EncodedFrame.headroom` bytes in front.
    private var pendingText: [[UInt8]] = []
    /// Most `activity` messages waiting for a client: beyond, the oldest are dropped (the
    /// list is `GET /api/activity`), so that a room busy changing things never closes a slow viewer.
    static let maximumPendingActivity = 32

    /// `activity` messages waiting, oldest first, each with its headroom.
    private var pendingActivity: [[UInt8]] = []
    /// The newest `pointer` message of each sender not yet written (latest wins), in the order
    /// the senders first waited.
    private var pendingPointers: [(sender: String, message: [UInt8])] = []
    /// A fresh `state` is due (coalesced: only the newest state is ever sent).
    private var stateDue = false
    /// Set when the connection is to be closed at its next writable callback.
    private(set) var closing: (status: Int32, reason: String)?
    /// Write the pending text (the error that explains the close) before closing.
    private var flushBeforeClosing = false

    /// Nothing is due.
    var isEmpty: Bool { closing == nil && pendingText.isEmpty && pendingActivity.isEmpty && pendingPointers.isEmpty && !stateDue }

    /// Queues `message`. Bounded: a client that never lets us write gets closed (1008) rather
    /// than growing a queue.
    mutating func enqueue(_ message: ServerMessage) {
        enqueue(encoded: message.encoded())
    }

    /// Queues a message already encoded (one encoding for every viewer it goes to); bounded as
    /// ``enqueue(_:)``.
    mutating func enqueue(encoded: [UInt8]) {
        guard pendingText.count < Self.maximumPendingText else {
            close(status: WebSocketClose.policyViolation, reason: "too many unsent messages")
            return
        }
        pendingText.append(withHeadroom(encoded))
    }

    /// Queues an `activity` message, dropping the oldest waiting beyond ``maximumPendingActivity``.
    mutating func enqueueActivity(_ encoded: [UInt8]) {
        if pendingActivity.count == Self.maximumPendingActivity { pendingActivity.removeFirst() }
        pendingActivity.append(withHeadroom(encoded))
    }

    /// Queues `sender`'s pointer message in place of one of theirs still waiting: at most one per
    /// sender waits (a channel's people bound them).
    mutating func enqueuePointer(_ encoded: [UInt8], from sender: String) {
        if let index = pendingPointers.firstIndex(where: { $0.sender == sender }) {
            pendingPointers[index].message = withHeadroom(encoded)
        } else {
            pendingPointers.append((sender, withHeadroom(encoded)))
        }
    }

    mutating func markStateDue() {
        stateDue = true
    }

    /// Closes at the next write; `flushingFirst`: after the text queued so far.
    mutating func close(status: Int, reason: String, flushingFirst: Bool = false) {
        closing = (Int32(status), reason)
        flushBeforeClosing = flushingFirst
    }

    /// In order: the close (after the pending text when it explains the close), pending text,
    /// activity, pointers, then the state; nil when none is due.
    mutating func next() -> ViewerWrite? {
        if let closing, !(flushBeforeClosing && !pendingText.isEmpty) {
            return .close(status: closing.status, reason: closing.reason)
        }
        if !pendingText.isEmpty { return .text(pendingText.removeFirst()) }
        if !pendingActivity.isEmpty { return .text(pendingActivity.removeFirst()) }
        if !pendingPointers.isEmpty { return .text(pendingPointers.removeFirst().message) }
        if stateDue {
            stateDue = false
            return .state
        }
        return nil
    }
}
