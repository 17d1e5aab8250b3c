import Logging
import Synchronization
import Telemetry

/// The **audio** thread: takes the demuxed packets of ``queue`` in order and transcodes them to
/// Opus (``AudioTranscoder``, one per source stream), handing every packet to `onPacket` — on
/// this thread, once for everybody who listens.
///
/// A restart with new parameters (another source) makes a new transcoder; a stream whose decoder
/// cannot be opened is logged once and stays silent until the next source. `stop()` ends the
/// thread; the queue is closed with it.
public final class AudioPipeline: Sendable {
    public let queue: AudioPacketQueue
    /// Opus packets made, and their bytes: once for all listeners.
    public let packetsEncoded = Counter()
    public let bytesEncoded = Counter()
    private let onPacket: @Sendable (EncodedAudio) -> Void
    private let thread = Mutex<WorkerThread?>(nil)

    /// Whether this FFmpeg can encode Opus: without it there is no sound to offer.
    public static var isAvailable: Bool { AudioTranscoder.isAvailable }

    public init(queue: AudioPacketQueue = AudioPacketQueue(), onPacket: @escaping @Sendable (EncodedAudio) -> Void) {
        self.queue = queue
        self.onPacket = onPacket
    }

    public func start() {
        thread.withLock { thread in
            precondition(thread == nil, "an audio pipeline starts once")
            thread = WorkerThread(name: "audio") { [self] in run() }
        }
    }

    /// Closes the queue and waits for the thread. Idempotent.
    public func stop() {
        queue.close()
        thread.withLock { $0 }?.join()
        thread.withLock { $0 = nil }
    }

    private func run() {
        var transcoder: AudioTranscoder?
        let emit = { [self] (packet: EncodedAudio) in
            packetsEncoded.increment()
            bytesEncoded.increment(by: UInt64(packet.bytes.count))
            onPacket(packet)
        }
        while let item = queue.take() {
            Self.handle(item, of: queue, with: &transcoder, emit)
        }
    }

    /// Carries out one item of `queue` with `transcoder` (made anew for a new stream); a failure
    /// is logged and silences the stream until its next restart.
    static func handle(_ item: AudioPacketQueue.Item, of queue: AudioPacketQueue, with transcoder: inout AudioTranscoder?,
                       _ emit: (EncodedAudio) -> Void) {
        do throws(MediaError) {
            switch item {
            case .restart(let parameters, let time):
                if let parameters, parameters !== transcoder?.parameters {
                    transcoder = nil
                    transcoder = try AudioTranscoder(parameters: parameters)
                }
                try transcoder?.restart(at: time)
            case .packet(let packet):
                defer { queue.recycle(packet) }
                try transcoder?.transcode(packet, emit)
            case .end:
                try transcoder?.drain(emit)
            }
        } catch {
            transcoder = nil
            Log.warning("the sound stops until the next seek or source: \(error.description)")
        }
    }
}
