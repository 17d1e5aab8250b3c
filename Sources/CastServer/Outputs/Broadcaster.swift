import Synchronization

/// The single "latest frame" hand-off between the processing thread and the network thread.
///
/// The processor fills a free buffer and publishes it; the network thread borrows the latest one
/// for the length of one write. A buffer is refilled only when it is neither the latest nor
/// borrowed, so frames are never queued and never overwritten while being sent.
public final class Broadcaster: Sendable {
    private struct State {
        var latest: EncodedFrame?
        /// Whether the latest frame was sent to a WebSocket viewer.
        var latestWasSent = false
        /// Borrow counts, by buffer identity.
        var borrowed: [ObjectIdentifier: Int] = [:]
        var buffers: [EncodedFrame] = []
    }

    private let state = Mutex(State())
    private let wake: @Sendable () -> Void
    private let maximumJPEGSize: Int

    /// `wake` is called after each publish (it wakes the network thread).
    public init(maximumJPEGSize: Int, wake: @escaping @Sendable () -> Void) {
        self.maximumJPEGSize = maximumJPEGSize
        self.wake = wake
    }

    /// Fills a free buffer with `fill` (outside the lock) and makes it the latest frame.
    ///
    /// A frame marked `stateChanged` that is replaced before any viewer got it passes its mark on
    /// to its successor, so that every change is marked on a frame viewers receive.
    public func publish(_ fill: (EncodedFrame) throws -> Void) rethrows {
        let buffer = state.withLock { state in
            if let free = state.buffers.first(where: { $0 !== state.latest && state.borrowed[ObjectIdentifier($0)] == nil }) {
                return free
            }
            let buffer = EncodedFrame(maximumBodySize: maximumJPEGSize)
            state.buffers.append(buffer)
            return buffer
        }
        try fill(buffer)
        state.withLock { state in
            if let replaced = state.latest, !state.latestWasSent, replaced.header.flags.contains(.stateChanged),
               !buffer.header.flags.contains(.stateChanged) {
                var marked = buffer.header
                marked.flags.insert(.stateChanged)
                buffer.setHeader(marked)
            }
            state.latest = buffer
            state.latestWasSent = false
        }
        wake()
    }

    /// The latest frame, borrowed until `giveBack(_:)`; nil before the first frame.
    /// `toViewer`: it goes to a WebSocket viewer (the readers of the change mark).
    package func borrowLatest(toViewer: Bool = false) -> EncodedFrame? {
        state.withLock { state in
            guard let latest = state.latest else { return nil }
            state.borrowed[ObjectIdentifier(latest), default: 0] += 1
            if toViewer { state.latestWasSent = true }
            return latest
        }
    }

    package func giveBack(_ frame: EncodedFrame) {
        state.withLock { state in
            let key = ObjectIdentifier(frame)
            if let count = state.borrowed[key], count > 1 { state.borrowed[key] = count - 1 } else { state.borrowed[key] = nil }
        }
    }

    /// The sequence number of the latest frame, if any.
    public var latestSequence: UInt64? { state.withLock { $0.latest?.header.sequence } }

    /// A copy of the latest JPEG (for `/snapshot.jpg`).
    public func latestJPEG() -> [UInt8]? {
        guard let frame = borrowLatest() else { return nil }
        defer { giveBack(frame) }
        return Array(frame.body.bindMemory(to: UInt8.self))
    }

    /// How many buffers exist (bounded: latest + borrowed + the one being filled).
    public var bufferCount: Int { state.withLock { $0.buffers.count } }
}
