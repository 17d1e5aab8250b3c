import CWebSockets
import Foundation

/// The sound for `/ws` viewers that asked for it (``ViewerAudio``): who listens, and the writes.
extension WebSocketServer {
    /// Writes sound packet `sequence` to a listener (gone already: nothing is written, and the
    /// listener's next is the newest); false when the write failed.
    func writeAudio(_ sequence: UInt64, _ wsi: OpaquePointer, to viewer: ViewerSession) -> Bool {
        guard let log = outputs.audio?.log, let packet = log.borrow(sequence) else { return true }
        defer { log.giveBack(packet) }
        packet.stampSendTime(Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
        let written = lws_write(wsi, packet.payload.assumingMemoryBound(to: UInt8.self), packet.payloadCount, LWS_WRITE_BINARY)
        if written < packet.payloadCount { return false }
        counters.audioSent.increment()
        counters.bytesSent.increment(by: UInt64(packet.payloadCount))
        counters.audioSkipped.increment(by: viewer.audioSent(sequence))
        return true
    }

    /// Keeps the sound's listener count in step with the viewers: the source's sound is decoded
    /// only while somebody listens.
    func listenersChanged() {
        outputs.audio?.setAudience(connections.values.reduce(0) { $0 + ($1.viewer?.isListening == true ? 1 : 0) })
    }
}
