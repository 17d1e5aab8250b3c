import CFFmpeg

/// One encoder of the ``AudioTranscoder``'s 48 kHz stereo float samples: its own FIFO (the
/// encoders take different frame sizes: Opus 960, AAC 1024), its frame, its packet and its count
/// of samples, so packets follow each other exactly from the first sample written after a start.
///
/// Every buffer is made in `init`; ``start()`` makes a fresh encoder (a restart, a jump, the stage
/// turned on), so the steady state allocates nothing. Audio thread only.
final class AudioEncoderStage {
    /// How to make the encoder.
    struct Kind {
        let codec: AudioCodec
        /// libavcodec's encoder: `libopus`, `aac`.
        let encoderName: String
        let frameSamples: Int32
        let bitRate: Int64
        /// Whether the encoder takes planar float (AAC) rather than packed (Opus).
        let planar: Bool
        let options: [(String, String)]
    }

    let kind: Kind
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private let fifo: OpaquePointer
    private let frame: UnsafeMutablePointer<AVFrame>
    private let packet: UnsafeMutablePointer<AVPacket>
    /// A planar encoder's packed samples, before they are dealt to the planes.
    private let packed: UnsafeMutablePointer<Float>
    /// Seconds of the encoder's sample 0, a whole number of microseconds (the wire's unit: a
    /// packet's time is then that plus an exact 20 ms step, which rounds the same way every time);
    /// nil until the first samples after a start.
    private var origin: Double?
    private var encodedSamples: Int64 = 0
    /// Seconds of the source a second of its samples: the tempo the sound plays at (atempo's).
    private var timeScale = 1.0
    private var discontinuity = true

    init(_ kind: Kind) throws(MediaError) {
        self.kind = kind
        let channels = AudioTranscoder.channels
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLT, channels, 4 * kind.frameSamples)
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        packed = .allocate(capacity: Int(kind.frameSamples * channels))
        frame.pointee.format = (kind.planar ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT).rawValue
        frame.pointee.sample_rate = AudioTranscoder.rate
        frame.pointee.nb_samples = kind.frameSamples
        av_channel_layout_default(&frame.pointee.ch_layout, channels)
        let result = av_frame_get_buffer(frame, 0)
        guard result >= 0 else { throw .encodeFailed(reason: "no audio buffer: \(averrorDescription(result))") }
        try start()
    }

    deinit {
        avcodec_free_context(&encoder)
        av_audio_fifo_free(fifo)
        var doomedFrame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&doomedFrame)
        var doomedPacket: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&doomedPacket)
        packed.deallocate()
    }

    /// A fresh encoder and an empty FIFO: the count of samples starts again with the next ones,
    /// each `timeScale` samples' worth of the source (the sound's tempo).
    func start(timeScale: Double = 1) throws(MediaError) {
        self.timeScale = timeScale
        av_audio_fifo_reset(fifo)
        origin = nil
        encodedSamples = 0
        discontinuity = true
        avcodec_free_context(&encoder)
        encoder = try Self.makeEncoder(kind)
    }

    /// Appends `count` packed stereo samples starting at `time` (seconds; only the first after a
    /// start counts) and encodes every full frame.
    func write(_ samples: UnsafeMutablePointer<Float>, count: Int32, at time: Double, _ emit: (EncodedAudio) -> Void) {
        guard count > 0 else { return }
        if origin == nil { origin = (time * 1e6).rounded() / 1e6 }
        var data: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(samples)
        _ = av_audio_fifo_write(fifo, &data, count)
        while av_audio_fifo_size(fifo) >= kind.frameSamples { encode(kind.frameSamples, emit) }
    }

    /// The stream ended: encodes the last (short) frame and the encoder's delayed packets.
    func drain(_ emit: (EncodedAudio) -> Void) {
        let left = av_audio_fifo_size(fifo)
        if left > 0, origin != nil { encode(left, emit) }
        avcodec_send_frame(encoder, nil)
        receivePackets(emit)
    }

    /// Encodes the FIFO's first `count` samples (a frame's worth, or the last few).
    private func encode(_ count: Int32, _ emit: (EncodedAudio) -> Void) {
        guard av_frame_make_writable(frame) >= 0 else { return }
        frame.pointee.nb_samples = count
        if kind.planar {
            var data: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(packed)
            _ = av_audio_fifo_read(fifo, &data, count)
            deal(count)
        } else {
            UnsafeMutableRawPointer(frame.pointee.extended_data).withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) {
                _ = av_audio_fifo_read(fifo, $0, count)
            }
        }
        frame.pointee.pts = encodedSamples
        encodedSamples += Int64(count)
        guard avcodec_send_frame(encoder, frame) >= 0 else { return }
        receivePackets(emit)
    }

    /// Deals `count` packed stereo samples of `packed` to the frame's left and right planes.
    private func deal(_ count: Int32) {
        guard let left = frame.pointee.extended_data[0], let right = frame.pointee.extended_data[1] else { return }
        let leftPlane = UnsafeMutableRawPointer(left).assumingMemoryBound(to: Float.self)
        let rightPlane = UnsafeMutableRawPointer(right).assumingMemoryBound(to: Float.self)
        for index in 0..<Int(count) {
            leftPlane[index] = packed[2 * index]
            rightPlane[index] = packed[2 * index + 1]
        }
    }

    private func receivePackets(_ emit: (EncodedAudio) -> Void) {
        while avcodec_receive_packet(encoder, packet) == 0 {
            defer { av_packet_unref(packet) }
            let rate = Double(AudioTranscoder.rate)
            emit(EncodedAudio(codec: kind.codec, time: (origin ?? 0) + Double(packet.pointee.pts) / rate * timeScale,
                              duration: Double(packet.pointee.duration) / rate, isDiscontinuity: discontinuity,
                              bytes: UnsafeRawBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size))))
            discontinuity = false
        }
    }

    /// Sets `stream`'s parameters to what `kind`'s encoder makes (its configuration included), from
    /// an encoder opened for the purpose; false when it cannot be opened.
    static func describe(_ kind: Kind, in stream: UnsafeMutablePointer<AVStream>) -> Bool {
        var context: UnsafeMutablePointer<AVCodecContext>? = try? makeEncoder(kind)
        defer { avcodec_free_context(&context) }
        guard let context else { return false }
        stream.pointee.time_base = AVRational(num: 1, den: AudioTranscoder.rate)
        guard avcodec_parameters_from_context(stream.pointee.codecpar, context) >= 0 else { return false }
        // The packets are stamped with the encoder's delay taken off (their decoded samples play
        // at their source times): an edit list skipping the priming again would put the sound early.
        stream.pointee.codecpar.pointee.initial_padding = 0
        return true
    }

    /// One packet of `kind`'s encoding of digital silence, past the encoder's priming: what fills
    /// the gaps of a recording's sound. Nil when the encoder cannot be opened.
    static func silentPacket(_ kind: Kind) -> [UInt8]? {
        guard let stage = try? AudioEncoderStage(kind) else { return nil }
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: Int(kind.frameSamples * AudioTranscoder.channels))
        defer { samples.deallocate() }
        samples.initialize(repeating: 0, count: Int(kind.frameSamples * AudioTranscoder.channels))
        var packets: [[UInt8]] = []
        for _ in 0..<4 {
            stage.write(samples, count: kind.frameSamples, at: 0) { packets.append(Array($0.bytes)) }
        }
        return packets.last
    }

    /// `kind`'s encoder at 48 kHz stereo; its time base is one sample.
    static func makeEncoder(_ kind: Kind) throws(MediaError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder_by_name(kind.encoderName), let context = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(reason: "this FFmpeg has no \(kind.encoderName) audio encoder")
        }
        context.pointee.sample_rate = AudioTranscoder.rate
        context.pointee.sample_fmt = kind.planar ? AV_SAMPLE_FMT_FLTP : AV_SAMPLE_FMT_FLT
        av_channel_layout_default(&context.pointee.ch_layout, AudioTranscoder.channels)
        context.pointee.bit_rate = kind.bitRate
        context.pointee.time_base = AVRational(num: 1, den: AudioTranscoder.rate)
        // Raw packets and the stream's configuration apart (extradata): what MP4, FLV and RTSP take.
        context.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        var options: OpaquePointer? = nil
        for (key, value) in kind.options { av_dict_set(&options, key, value, 0) }
        defer { av_dict_free(&options) }
        let opened = avcodec_open2(context, codec, &options)
        guard opened >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&doomed)
            throw .encodeFailed(reason: "cannot open the \(kind.encoderName) encoder: \(averrorDescription(opened))")
        }
        return context
    }
}
