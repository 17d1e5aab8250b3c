import Synchronization

/// A recording's sound: the AAC packets of the ``AudioPipeline`` (source times), put on the
/// recording's clock by the pictures it records, and written with them by the encoder thread.
///
/// The processing thread notes each picture's source time and recording time (``note(source:at:)``):
/// their difference is the offset of the stretch being played; a pause, a seek or a switch changes
/// it, and a new stretch begins; the audio's own restarts (a seek, a switch) drop what was queued
/// from the old position. A packet is written once the pictures reach it, at
/// its source time plus the offset; a gap of a packet or more (a pause, a source without sound,
/// sound starting after the picture) is filled with silence, so the sound lasts as long as the
/// pictures. Holds at most ``capacity`` packets (≈ 2.7 s; the oldest go first), each copied into
/// buffers made once. Thread-safe: the audio thread takes, the processing thread notes, the
/// encoder thread writes.
final class RecordingAudio: AudioSink {
    static let capacity = 128
    /// The largest AAC-LC stereo frame (6144 bits a channel), with room to spare.
    static let maximumPacket = 2048
    /// A change of the pictures' offset beyond this is a new stretch (a pause, a seek), not jitter.
    static let maximumDrift = 0.12
    /// Silence is written only this far behind the pictures: the sound may still be coming.
    static let allowance = 0.3
    static let packetDuration = Double(AudioTranscoder.aac.frameSamples) / Double(AudioTranscoder.rate)

    /// A packet buffer: its bytes are touched under the lock only (or are `out`, the encoder thread's).
    private struct Slot: @unchecked Sendable {
        let bytes: UnsafeMutableRawPointer
        var count = 0
        var time = 0.0
        var isDiscontinuity = false
    }

    private struct State: ~Copyable {
        var slots: [Slot]
        var head = 0
        var count = 0
        /// Recording time minus source time of the stretch being played; nil before the first picture.
        var offset: Double?
        /// The newest picture's source time.
        var lastSource = 0.0
        var dropped = 0
    }

    private let state: Mutex<State>
    /// Encoder thread only: the packet being written, out of the lock.
    nonisolated(unsafe) private var out: Slot
    /// Encoder thread only: where the sound written so far ends (recording seconds); nil before
    /// the first picture.
    nonisolated(unsafe) private var end: Double?
    /// One silent packet, made once.
    nonisolated(unsafe) private let silence: UnsafeMutableRawPointer
    private let silenceCount: Int
    private let frameInterval: Double

    /// `silence`: one AAC packet of digital silence (``AudioEncoderStage/silentPacket(_:)``).
    init(frameRate: Double, silence: [UInt8]) {
        frameInterval = 1 / max(frameRate, 1)
        self.silence = .allocate(byteCount: max(silence.count, 1), alignment: 16)
        self.silence.copyMemory(from: silence, byteCount: silence.count)
        silenceCount = silence.count
        let slots = (0..<Self.capacity).map { _ in
            Slot(bytes: .allocate(byteCount: Self.maximumPacket, alignment: 16))
        }
        state = Mutex(State(slots: slots))
        out = Slot(bytes: .allocate(byteCount: Self.maximumPacket, alignment: 16))
    }

    deinit {
        state.withLock { state in for slot in state.slots { slot.bytes.deallocate() } }
        out.bytes.deallocate()
        silence.deallocate()
    }

    /// Packets dropped: the ring was full (the pictures did not come), or they were stale.
    var droppedPackets: Int { state.withLock { $0.dropped } }

    /// Audio thread: copies `packet` in (an AAC one; the oldest queued goes when full). The
    /// first packet of a restart (a seek, a switch, a gap) drops what is queued: it was the old position's.
    func take(_ packet: EncodedAudio) {
        guard packet.codec == .aac, packet.bytes.count <= Self.maximumPacket, let address = packet.bytes.baseAddress else { return }
        // Read inside the lock, on this thread, during the call.
        nonisolated(unsafe) let base = address
        let (count, time, isDiscontinuity) = (packet.bytes.count, packet.time, packet.isDiscontinuity)
        state.withLock { state in
            if isDiscontinuity {
                state.dropped += state.count
                state.count = 0
            }
            if state.count == Self.capacity {
                state.head = (state.head + 1) % Self.capacity
                state.count -= 1
                state.dropped += 1
            }
            let index = (state.head + state.count) % Self.capacity
            state.slots[index].bytes.copyMemory(from: base, byteCount: count)
            state.slots[index].count = count
            state.slots[index].time = time
            state.slots[index].isDiscontinuity = isDiscontinuity
            state.count += 1
        }
    }

    /// Processing thread: a picture of source time `source` is recorded at `recorded` seconds.
    func note(source: Double, at recorded: Double) {
        state.withLock { state in
            let offset = recorded - source
            if let current = state.offset, abs(offset - current) <= Self.maximumDrift, source >= state.lastSource {
                state.lastSource = source
                return
            }
            state.offset = offset
            state.lastSource = source
            Self.dropStale(&state, before: source)
        }
    }

    /// A new stretch from `source`: what ends before it will not be shown.
    private static func dropStale(_ state: inout State, before source: Double) {
        while state.count > 0, state.slots[state.head].time + packetDuration < source {
            state.head = (state.head + 1) % capacity
            state.count -= 1
            state.dropped += 1
        }
    }

    /// Encoder thread, after a picture at `recorded` seconds was written to `writer`: writes the
    /// packets the pictures have reached, silence for the gaps, and silence up to
    /// ``allowance`` behind the picture when no sound comes (paused, no sound in the source).
    func write(to writer: VideoWriter, pictureAt recorded: Double) throws(MediaError) {
        if end == nil { end = recorded }
        while let time = popReady() {
            try fillSilence(writer, until: time)
            // Behind what is written (a new stretch overlapping the old): dropped.
            guard let end, time >= end - Self.packetDuration / 2 else { continue }
            if try writer.write(audio: UnsafeRawBufferPointer(start: out.bytes, count: out.count), at: max(time, end)) {
                self.end = max(time, end) + Self.packetDuration
            }
        }
        try fillSilence(writer, until: recorded - Self.allowance)
    }

    /// Encoder thread, as the recording ends after its last picture at `recorded`: silence up to
    /// the end of that picture, so the sound lasts as long as the pictures.
    func finish(to writer: VideoWriter, lastPictureAt recorded: Double) throws(MediaError) {
        try fillSilence(writer, until: recorded + frameInterval)
    }

    /// Silent packets from where the sound ends while a whole one fits before `time`.
    private func fillSilence(_ writer: VideoWriter, until time: Double) throws(MediaError) {
        guard var position = end else { return }
        while position + Self.packetDuration <= time + 0.001 {
            guard try writer.write(audio: UnsafeRawBufferPointer(start: silence, count: silenceCount), at: position) else { break }
            position += Self.packetDuration
        }
        end = position
    }

    /// Moves the next packet the pictures have reached into `out`; its recording time, or nil.
    private func popReady() -> Double? {
        state.withLock { state -> Double? in
            guard state.count > 0, let offset = state.offset else { return nil }
            let slot = state.slots[state.head]
            let reached = slot.time < state.lastSource + frameInterval
            // The first packet of a restart behind the pictures (a seek back) waits for the stretch it starts.
            let sameStretch = !slot.isDiscontinuity || slot.time >= state.lastSource - 2 * frameInterval
            guard reached, sameStretch else { return nil }
            out.bytes.copyMemory(from: slot.bytes, byteCount: slot.count)
            out.count = slot.count
            state.head = (state.head + 1) % Self.capacity
            state.count -= 1
            return slot.time + offset
        }
    }
}
