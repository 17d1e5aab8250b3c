import CastProtocol
import Foundation

/// What a viewer's writable callback writes: one message, which the core hands to the adapter's
/// `send` and accounts for (the sequence sent, the bytes, the frames skipped).
extension ServerCore {
    /// What kind of WebSocket message `send` writes.
    package enum MessageKind { case text, binary }

    /// Writes `count` bytes at `bytes` as one message of `kind`; `EncodedFrame.headroom` writable
    /// bytes lie before `bytes` (lws writes the frame header there). False when the write failed.
    package typealias Send = (_ bytes: UnsafeMutablePointer<UInt8>, _ count: Int, _ kind: MessageKind) -> Bool

    package enum WriteOutcome: Equatable {
        case written
        /// The write failed: the connection is dropped.
        case failed
        /// Close the connection with this code and reason.
        case close(status: Int32, reason: String)
    }

    /// The viewer's writable callback: the one message its session says is due.
    package func writeViewer(_ id: ConnectionID, send: Send) -> WriteOutcome {
        guard let connection = viewers[id] else { return .written }
        let viewer = connection.session, outputs = connection.channel.outputs
        let supply = supply(of: connection.channel)
        let written: Bool
        switch viewer.nextWrite(supply: supply, frameInterval: frameInterval(of: connection.channel)) {
        case .close(let status, let reason):
            return .close(status: status, reason: reason)
        case .text(var text):
            written = sendText(&text, send)
        case .state:
            var text = withHeadroom(ServerMessage.state(viewer.seen(state(of: connection.channel, for: id))).encoded())
            written = sendText(&text, send)
        case .frame(let rendition):
            written = writeLatestFrame(outputs.jpeg[rendition]?.broadcaster, to: viewer, send)
        case .unit(let rendition, let sequence):
            written = writeUnit(sequence, of: outputs.h264[rendition]?.log, to: viewer, send)
        case .audio(let sequence):
            written = writeAudio(sequence, of: outputs.audio?.log, to: viewer, send)
        case .padding(let bytes):
            written = send(Self.padding.payload.assumingMemoryBound(to: UInt8.self), FrameHeader.size + bytes, .binary)
            if written {
                counters.bytesSent.increment(by: UInt64(FrameHeader.size + bytes))
                viewer.paddingSent(bytes)
            }
        case .nothing:
            written = true
        }
        guard written else { return .failed }
        releaseAcks(connection)
        requestWriteIfDue(id, connection, supply)
        return .written
    }

    /// Answers the viewer's `step`s and `seek`s whose frame is out and was sent to it. The jumps
    /// out are read before the supply is taken: a frame that left the pipeline by then is in it.
    func releaseAcks(_ connection: ViewerConnection) {
        guard connection.session.holdsAcks else { return }
        let jumpsOut = connection.channel.session.player.jumpsOut
        connection.session.releaseAcks(jumpsOut: jumpsOut, supply: supply(of: connection.channel, withEncoders: true),
                                       frameInterval: frameInterval(of: connection.channel))
    }

    /// A text message (with its headroom in front), counted.
    private func sendText(_ buffer: inout [UInt8], _ send: Send) -> Bool {
        let count = buffer.count - EncodedFrame.headroom
        let written = buffer.withUnsafeMutableBufferPointer { send($0.baseAddress! + EncodedFrame.headroom, count, .text) }
        if written { counters.bytesSent.increment(by: UInt64(count)) }
        return written
    }

    /// The padding message of a padded probe (`FCP1`, 32 bytes laid out as a frame's header, then
    /// zeros), up to 16 KB of padding; clients skip it. Written by the service thread only, never
    /// changed.
    static let padding: EncodedFrame = {
        let message = EncodedFrame(maximumBodySize: 16 * 1024)
        message.payload.initializeMemory(as: UInt8.self, repeating: 0, count: FrameHeader.size + 16 * 1024)
        FrameHeader(flags: [], sequence: 0, presentationTime: 0, sendTime: 0)
            .write(to: message.payload, magic: FrameHeader.paddingMagic, length: FrameHeader.size)
        return message
    }()

    /// The latest frame of a JPEG rendition's `broadcaster`, if it is newer than the viewer's last.
    private func writeLatestFrame(_ broadcaster: Broadcaster?, to viewer: ViewerSession, _ send: Send) -> Bool {
        guard let broadcaster, let frame = broadcaster.borrowLatest(toViewer: true) else {
            return true
        }
        defer { broadcaster.giveBack(frame) }
        guard frame.header.sequence > viewer.flow.lastSent else { return true }
        return sendFrame(frame, to: viewer, send)
    }

    /// Access unit `sequence` of an H.264 rendition's `log` (gone already: nothing is written).
    private func writeUnit(_ sequence: UInt64, of log: AccessUnitLog?, to viewer: ViewerSession, _ send: Send) -> Bool {
        guard let log, let unit = log.borrow(sequence) else { return true }
        defer { log.giveBack(unit) }
        return sendFrame(unit, to: viewer, send)
    }

    /// Stamps the send time into `frame`, writes it and counts it.
    private func sendFrame(_ frame: EncodedFrame, to viewer: ViewerSession, _ send: Send) -> Bool {
        frame.stampSendTime(Self.wallClockMicroseconds())
        guard send(frame.payload.assumingMemoryBound(to: UInt8.self), frame.payloadCount, .binary) else { return false }
        countSent(frame.header.sequence, bytes: frame.payloadCount, after: viewer.flow.lastSent)
        viewer.frameSent(frame.header.sequence)
        return true
    }

    /// Sound packet `sequence` of its channel's `log` to a listener (gone already: nothing is
    /// written, and the listener's next is the newest).
    private func writeAudio(_ sequence: UInt64, of log: AccessUnitLog?, to viewer: ViewerSession, _ send: Send) -> Bool {
        guard let log, let packet = log.borrow(sequence) else { return true }
        defer { log.giveBack(packet) }
        packet.stampSendTime(Self.wallClockMicroseconds())
        guard send(packet.payload.assumingMemoryBound(to: UInt8.self), packet.payloadCount, .binary) else { return false }
        counters.audioSent.increment()
        counters.bytesSent.increment(by: UInt64(packet.payloadCount))
        counters.audioSkipped.increment(by: viewer.audioSent(sequence))
        return true
    }

    /// Counts frame `sequence`, just written in `bytes` to a client whose previous frame was
    /// `previous` (0: none), and the frames the client skipped in between.
    package func countSent(_ sequence: UInt64, bytes: Int, after previous: UInt64) {
        counters.framesSent.increment()
        counters.bytesSent.increment(by: UInt64(bytes))
        if previous > 0 && sequence > previous + 1 {
            counters.droppedSlowClient.increment(by: sequence - previous - 1)
        }
    }

    /// The send time stamped into frames: the wall clock (the page compares it with its own).
    static func wallClockMicroseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1e6).rounded()) }
}
