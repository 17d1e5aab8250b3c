import Logging
import Synchronization
import Telemetry

/// The **audio** thread: takes the demuxed packets of ``queue`` in order and transcodes them
/// (``AudioTranscoder``, one per source stream), decoding once: to Opus while somebody listens
/// (``setListening(_:)``), every packet to `onPacket`, once for all listeners; to AAC while any
/// ``AudioSink`` is attached (a recording, a published stream), every packet to each of them.
/// The source's sound is demuxed only while either is wanted; otherwise the thread sleeps.
///
/// A restart with new parameters (another source) makes a new transcoder; a stream whose decoder
/// cannot be opened is logged once and stays silent until the next source. `stop()` ends the
/// thread; the queue is closed with it.
public final class AudioPipeline: Sendable {
    public let queue: AudioPacketQueue
    /// Opus packets made, and their bytes: once for all listeners (AAC packets are the sinks' to count).
    public let packetsEncoded = Counter()
    public let bytesEncoded = Counter()
    private let onPacket: @Sendable (EncodedAudio) -> Void
    private let thread = Mutex<WorkerThread?>(nil)
    private let listening = Atomic<Bool>(false)
    /// Guarded: what takes the AAC packets (a handful at most: a recording, a publisher).
    private let sinks = Mutex<[any AudioSink]>([])

    /// Whether this FFmpeg can encode Opus: without it there is no sound to offer.
    public static var isAvailable: Bool { AudioTranscoder.isAvailable }

    /// What its lines carry (a channel's name).
    private let log: LogScope

    /// Its log lines carry `log`'s fields.
    public init(queue: AudioPacketQueue = AudioPacketQueue(), log: LogScope = LogScope(),
                onPacket: @escaping @Sendable (EncodedAudio) -> Void) {
        self.queue = queue
        self.log = log
        self.onPacket = onPacket
    }

    /// Whether anybody listens to the Opus packets now (any thread).
    public func setListening(_ isListening: Bool) {
        listening.store(isListening, ordering: .relaxed)
        updateWanted()
    }

    /// `sink` takes every AAC packet from now on, until ``detach(_:)`` (any thread).
    public func attach(_ sink: any AudioSink) {
        sinks.withLock { $0.append(sink) }
        updateWanted()
    }

    public func detach(_ sink: any AudioSink) {
        sinks.withLock { $0.removeAll { $0 === sink } }
        updateWanted()
    }

    /// The source's sound is demuxed while somebody listens or something takes AAC.
    private func updateWanted() {
        let hasSinks = sinks.withLock { !$0.isEmpty }
        let isListening = listening.load(ordering: .relaxed)
        queue.setHeard(isListening)
        queue.setWanted(isListening || hasSinks)
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
            switch packet.codec {
            case .opus:
                packetsEncoded.increment()
                bytesEncoded.increment(by: UInt64(packet.bytes.count))
                onPacket(packet)
            case .aac:
                sinks.withLock { sinks in for sink in sinks { sink.take(packet) } }
            }
        }
        while let item = queue.take() {
            let aac = sinks.withLock { !$0.isEmpty }
            Self.handle(item, of: queue, with: &transcoder, opus: listening.load(ordering: .relaxed), aac: aac, log: log, emit)
        }
    }

    /// Carries out one item of `queue` with `transcoder` (made anew for a new stream); a failure
    /// is logged (in `log`'s scope) and silences the stream until its next restart. `opus` and
    /// `aac`: the encoders wanted.
    static func handle(_ item: AudioPacketQueue.Item, of queue: AudioPacketQueue, with transcoder: inout AudioTranscoder?,
                       opus: Bool = true, aac: Bool = false, log: LogScope = LogScope(), _ emit: (EncodedAudio) -> Void) {
        do throws(MediaError) {
            try transcoder?.want(opus: opus, aac: aac)
            try transcoder?.setTempo(queue.tempo)
            switch item {
            case .restart(let parameters, let time):
                if let parameters, parameters !== transcoder?.parameters {
                    transcoder = nil
                    transcoder = try AudioTranscoder(parameters: parameters)
                    try transcoder?.want(opus: opus, aac: aac)
                    try transcoder?.setTempo(queue.tempo)
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
            log.warning("the sound stops until the next seek or source: \(error.description)")
        }
    }
}
