import Synchronization

/// The sound of a stream a writer makes — a recording, a published stream: the AAC packets of the
/// ``AudioPipeline`` (source times), put on the stream's clock by the pictures it writes, and
/// written with them by the writer's (encoder) thread.
///
/// The thread that offers the pictures to the writer notes each picture's source time and stream
/// time (``note(source:at:)``):
/// their difference (smoothed) is the offset of the stretch being played; a pause, a seek or a
/// switch changes it, and a new stretch begins. The last ``maximumStretches`` are kept: the
/// demuxer gives a file's sound up to a second before or after its pictures (as the file
/// interleaves them), so a packet may come after the stretch it belongs to has ended. The audio's
/// own restarts (a seek, a switch) drop what was queued from the old position. A packet is written
/// once the pictures reach it, at its source time plus its stretch's offset; a gap of a packet or more (a pause, a source without sound,
/// sound starting after the picture) is filled with silence, so the sound lasts as long as the
/// pictures. Holds at most ``capacity`` packets (≈ 2.7 s; the oldest go first), each copied into
/// buffers made once. Thread-safe: the audio thread takes, the offering thread notes, the
/// encoder thread writes (``restart()`` for each new writer: a reconnection).
final class SoundTrack: AudioSink {
    static let capacity = 128
    /// The largest AAC-LC stereo frame (6144 bits a channel), with room to spare.
    static let maximumPacket = 2048
    /// A change of the pictures' offset beyond this is a new stretch (a pause, a seek), not jitter.
    static let maximumDrift = 0.12
    /// Silence is written only this far behind the pictures: the sound may still be coming (a
    /// file's interleaving puts it up to a second after its pictures).
    static let allowance = 1.2
    static let maximumStretches = 8
    /// How much of each new picture's offset goes into its stretch's (the pictures' jitter smoothed).
    static let smoothing = 0.2
    static let packetDuration = Double(AudioTranscoder.aac.frameSamples) / Double(AudioTranscoder.rate)

    /// A packet buffer: its bytes are touched under the lock only (or are `out`, the encoder thread's).
    private struct Slot: @unchecked Sendable {
        let bytes: UnsafeMutableRawPointer
        var count = 0
        var time = 0.0
        var isDiscontinuity = false
    }

    /// Pictures played one after the other: source times from `first` to `last`, recorded at
    /// their source time plus `offset`.
    private struct Stretch {
        var first: Double
        var last: Double
        var offset: Double
    }

    private struct State: ~Copyable {
        var slots: [Slot]
        var head = 0
        var count = 0
        /// The newest last; empty before the first picture.
        var stretches: [Stretch] = []
        var dropped = 0
        /// The last picture time ``note(source:at:)`` returned.
        var lastStamp = -Double.infinity
    }

    private let state: Mutex<State>
    /// Encoder thread only: the packet being written, out of the lock.
    nonisolated(unsafe) private var out: Slot
    /// Encoder thread only: where the sound written so far ends (stream seconds); nil before
    /// the first picture.
    nonisolated(unsafe) private var end: Double?
    /// One silent packet, made once.
    nonisolated(unsafe) private let silence: UnsafeMutableRawPointer
    private let silenceCount: Int
    private let frameInterval: Double
    private let pipeline: AudioPipeline

    /// One AAC packet of digital silence, made at the first use; nil when this FFmpeg has no AAC encoder.
    private static let silentPacket = AudioEncoderStage.silentPacket(AudioTranscoder.aac)

    /// The sound of `pipeline` (once ``attach()`` is called) for pictures at about `frameRate`;
    /// nil when this FFmpeg cannot encode AAC.
    init?(of pipeline: AudioPipeline, frameRate: Double) {
        guard let silence = Self.silentPacket else { return nil }
        self.pipeline = pipeline
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

    /// Takes the pipeline's packets from now on (the source's sound is demuxed and encoded to AAC).
    func attach() { pipeline.attach(self) }

    /// Takes no more packets.
    func detach() { pipeline.detach(self) }

    /// Encoder thread: a new writer follows (a published stream's reconnection): its sound begins
    /// with its first picture.
    func restart() { end = nil }

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

    /// The offering thread: a picture of source time `source` is offered at `recorded` seconds of
    /// the stream. Returns when to write it: its source time plus its stretch's smoothed offset —
    /// where the sound of that moment is written, so that the pictures' jitter (an offer delayed by
    /// a busy machine) moves neither them nor the sound apart — never before an earlier one's.
    func note(source: Double, at recorded: Double) -> Double {
        state.withLock { state in
            let offset = recorded - source
            if let current = state.stretches.last, abs(offset - current.offset) <= Self.maximumDrift, source >= current.last {
                state.stretches[state.stretches.count - 1].last = source
                state.stretches[state.stretches.count - 1].offset += (offset - current.offset) * Self.smoothing
            } else {
                if state.stretches.count == Self.maximumStretches { state.stretches.removeFirst() }
                state.stretches.append(Stretch(first: source, last: source, offset: offset))
                dropStale(&state)
            }
            let stamp = max(source + state.stretches[state.stretches.count - 1].offset, state.lastStamp + 0.001)
            state.lastStamp = stamp
            return stamp
        }
    }

    /// A new stretch began: the packets at the head before it that belong to no earlier stretch
    /// (sound of the position left, a stream's first packets given late) will not be shown.
    private func dropStale(_ state: inout State) {
        guard let newest = state.stretches.last else { return }
        while state.count > 0 {
            let time = state.slots[state.head].time
            guard time < newest.first - 2 * frameInterval, stretch(containing: time, in: state.stretches.dropLast()) == nil else { return }
            state.head = (state.head + 1) % Self.capacity
            state.count -= 1
            state.dropped += 1
        }
    }

    /// The newest of `stretches` that showed the source time `time`.
    private func stretch(containing time: Double, in stretches: ArraySlice<Stretch>) -> Stretch? {
        stretches.last { time >= $0.first - 2 * frameInterval && time < $0.last + frameInterval }
    }

    /// Encoder thread, after a picture at `recorded` seconds was written to `writer`: writes the
    /// packets the pictures have reached, silence for the gaps, and silence up to
    /// ``allowance`` behind the picture when no sound comes (paused, no sound in the source).
    func write(to writer: VideoWriter, pictureAt recorded: Double) throws(MediaError) {
        // The writer's origin is the first picture's time in whole milliseconds: the sound starts
        // there, not a rounding before it (a packet before the origin is refused).
        if end == nil { end = (recorded * 1000).rounded() / 1000 }
        while let time = popReady() {
            guard !time.isNaN else { continue }
            try fillSilence(writer, until: time)
            // Behind what is written (a new stretch overlapping the old): dropped.
            guard let end, time >= end - Self.packetDuration / 2 else { continue }
            if try writer.write(audio: UnsafeRawBufferPointer(start: out.bytes, count: out.count), at: max(time, end)) {
                self.end = max(time, end) + Self.packetDuration
            }
        }
        try fillSilence(writer, until: recorded - Self.allowance)
    }

    /// Encoder thread, as the stream ends after its last picture at `recorded`: silence up to
    /// the end of that picture, so the sound lasts as long as the pictures.
    func finish(to writer: VideoWriter, lastPictureAt recorded: Double) throws(MediaError) {
        try fillSilence(writer, until: recorded + frameInterval)
    }

    /// Silent packets from where the sound ends while a whole one fits before `time`.
    private func fillSilence(_ writer: VideoWriter, until time: Double) throws(MediaError) {
        guard var position = end else { return }
        while position + Self.packetDuration <= time + 0.001 {
            // A packet the writer refuses (not after the last) is skipped: the silence goes on after it.
            _ = try writer.write(audio: UnsafeRawBufferPointer(start: silence, count: silenceCount), at: position)
            position += Self.packetDuration
        }
        end = position
    }

    /// Moves the next packet the pictures have reached into `out`; its stream time, NaN when
    /// it was dropped instead (shown by no picture), nil when none is ready.
    private func popReady() -> Double? {
        state.withLock { state -> Double? in
            guard state.count > 0, let newest = state.stretches.last else { return nil }
            let slot = state.slots[state.head]
            let offset: Double
            if slot.time < newest.first, !slot.isDiscontinuity,
               let earlier = stretch(containing: slot.time, in: state.stretches.dropLast()) {
                // Late for a stretch that has ended (the file gave its sound after its pictures).
                offset = earlier.offset
            } else if slot.time >= newest.first - 2 * frameInterval {
                // The stretch playing: written once the pictures reach it.
                guard slot.time < newest.last + frameInterval else { return nil }
                offset = newest.offset
            } else if slot.isDiscontinuity {
                // The first packet of a restart behind the pictures (a seek back) waits for the stretch it starts.
                return nil
            } else {
                // Of no stretch: the pictures never showed it.
                state.head = (state.head + 1) % Self.capacity
                state.count -= 1
                state.dropped += 1
                return .nan
            }
            out.bytes.copyMemory(from: slot.bytes, byteCount: slot.count)
            out.count = slot.count
            state.head = (state.head + 1) % Self.capacity
            state.count -= 1
            return slot.time + offset
        }
    }
}
