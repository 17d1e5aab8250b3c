import CastProtocol
import Logging
import MediaKit
import Synchronization

/// The sound for `/ws` viewers that asked for it: the audio thread (``AudioPipeline``) encodes
/// each Opus packet once into ``log``, a ring of the newest ``maximumPackets`` behind the `FCA1`
/// header, which each listener walks at its own pace (``ViewerSession``) — the bound of every
/// listener's queue. The source's sound is decoded only while somebody listens (``audience``) or a
/// recording takes it (``AudioPipeline/attach(_:)``).
///
/// Threads: the audio thread appends and wakes the transport; the service thread sets the
/// audience and borrows packets for its writes.
final class ViewerAudio: Sendable {
    /// One second of 20 ms packets: a listener further behind skips to the newest.
    static let maximumPackets = 50

    let log: AccessUnitLog
    let pipeline: AudioPipeline
    /// Listeners now (viewers that may watch and asked for sound).
    let audience = Atomic<Int>(0)

    /// The sound of the packets `queue` is given (the player's); `wake` wakes the transport; its
    /// lines carry `log`'s fields.
    init(queue: AudioPacketQueue, log scope: LogScope, wake: @escaping @Sendable () -> Void) {
        let log = AccessUnitLog(rendition: nil, magic: FrameHeader.audioMagic, maximumUnits: Self.maximumPackets)
        self.log = log
        pipeline = AudioPipeline(queue: queue, log: scope) { packet in
            log.append(packet.bytes, time: packet.time, isKeyframe: false, isChanged: packet.isDiscontinuity)
            wake()
        }
    }

    /// Service thread: `listeners` viewers listen now; the source's sound is passed on while any does.
    func setAudience(_ listeners: Int) {
        audience.store(listeners, ordering: .relaxed)
        pipeline.setListening(listeners > 0)
    }
}
