import CFFmpeg

/// Decodes one audio stream (any codec libavcodec has), down-mixes and resamples it with
/// libswresample to packed float stereo at 48 kHz, and encodes 20 ms Opus packets with libopus.
///
/// Times are the source's, in seconds on the pictures' clock: counted in samples from the first
/// decoded frame after a start, so packets follow each other exactly; a jump of more than
/// ``maximumJump`` in the input's own timestamps starts the count again. Every buffer is made in
/// `init` (the resampler and the encoder again on a restart or a change of input format), so
/// the steady state allocates nothing. Not thread-safe: the audio thread owns it.
final class AudioTranscoder {
    static let rate: Int32 = 48_000
    static let channels: Int32 = 2
    /// Samples per Opus packet: 20 ms.
    static let frameSamples: Int32 = 960
    static let bitRate: Int64 = 96_000
    /// A gap or overlap in the input's timestamps beyond this is a discontinuity, not jitter.
    static let maximumJump = 0.1

    /// Whether this FFmpeg can encode Opus (libopus).
    static var isAvailable: Bool { avcodec_find_encoder_by_name("libopus") != nil }

    let parameters: AudioStreamParameters
    private let decoder: UnsafeMutablePointer<AVCodecContext>
    private var encoder: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    /// What `resampler` was made for: the decoded frames' format, rate and layout.
    private var resamplerInput: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    private let fifo: OpaquePointer
    private let decoded: UnsafeMutablePointer<AVFrame>
    private let encoderFrame: UnsafeMutablePointer<AVFrame>
    private let encoded: UnsafeMutablePointer<AVPacket>
    /// The resampler's output, before the FIFO: `scratchSamples` stereo float samples.
    private var scratch: UnsafeMutablePointer<Float>
    private var scratchSamples = 8192

    /// Seconds of the encoder's sample 0; nil until the first frame after a start.
    private var origin: Double?
    /// Samples given to the encoder since `origin`.
    private var encodedSamples: Int64 = 0
    /// Where the next decoded frame should start (seconds), to tell a jump from jitter.
    private var expectedInput: Double?
    /// Sound before this (seconds) is dropped: a seek's target.
    private var dropBefore: Double?
    private var discontinuity = true
    /// After ``drain(_:)``: the encoder gave out its last packet and takes nothing more.
    private var drained = false

    init(parameters: AudioStreamParameters) throws(MediaError) {
        self.parameters = parameters
        let codecID = parameters.codecParameters.pointee.codec_id
        guard let codec = avcodec_find_decoder(codecID), let context = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(reason: "no decoder for audio codec '\(parameters.info.codec)'")
        }
        var doomed: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_parameters_to_context(context, parameters.codecParameters)
        context.pointee.pkt_timebase = parameters.timeBase
        context.pointee.thread_count = 1
        let opened = avcodec_open2(context, codec, nil)
        guard opened >= 0 else {
            avcodec_free_context(&doomed)
            throw .encodeFailed(reason: "cannot open the \(parameters.info.codec) decoder: \(averrorDescription(opened))")
        }
        decoder = context
        fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLT, Self.channels, 4 * Self.frameSamples)
        decoded = av_frame_alloc()
        encoderFrame = av_frame_alloc()
        encoded = av_packet_alloc()
        scratch = .allocate(capacity: scratchSamples * Int(Self.channels))
        try prepareEncoderFrame()
        encoder = try Self.makeEncoder()
    }

    deinit {
        var decoderContext: UnsafeMutablePointer<AVCodecContext>? = decoder
        avcodec_free_context(&decoderContext)
        avcodec_free_context(&encoder)
        swr_free(&resampler)
        if var layout = resamplerInput?.layout { av_channel_layout_uninit(&layout) }
        av_audio_fifo_free(fifo)
        var frames: [UnsafeMutablePointer<AVFrame>?] = [decoded, encoderFrame]
        for index in frames.indices { av_frame_free(&frames[index]) }
        var packet: UnsafeMutablePointer<AVPacket>? = encoded
        av_packet_free(&packet)
        scratch.deallocate()
    }

    /// Starts over (a seek, a new start, a gap): what is buffered is dropped, sound before `time`
    /// (seconds) will be, and the next packet is marked as a discontinuity.
    func restart(at time: Double?) throws(MediaError) {
        avcodec_flush_buffers(decoder)
        dropBefore = time
        expectedInput = nil
        try startEncoding()
    }

    /// Decodes `packet` and hands out every Opus packet it completes.
    func transcode(_ packet: UnsafeMutablePointer<AVPacket>, _ emit: (EncodedAudio) -> Void) throws(MediaError) {
        if drained { try restart(at: nil) }
        // A packet the decoder refuses (corrupt) is skipped: the next one goes on.
        guard avcodec_send_packet(decoder, packet) >= 0 else { return }
        try receiveFrames(emit)
    }

    /// The stream ended: decodes what the decoder holds, encodes the last (short) packet and
    /// the encoder's delayed ones. Until a restart, the next packet starts over.
    func drain(_ emit: (EncodedAudio) -> Void) throws(MediaError) {
        guard !drained else { return }
        avcodec_send_packet(decoder, nil)
        try receiveFrames(emit)
        let left = av_audio_fifo_size(fifo)
        if left > 0, origin != nil { encode(left, emit) }
        avcodec_send_frame(encoder, nil)
        receivePackets(emit)
        drained = true
    }

    private func receiveFrames(_ emit: (EncodedAudio) -> Void) throws(MediaError) {
        while avcodec_receive_frame(decoder, decoded) == 0 {
            defer { av_frame_unref(decoded) }
            try take(decoded, emit)
        }
    }

    /// One decoded frame: resampled into the FIFO (after the start and any jump are settled),
    /// then encoded 20 ms at a time.
    private func take(_ frame: UnsafeMutablePointer<AVFrame>, _ emit: (EncodedAudio) -> Void) throws(MediaError) {
        let timestamp = frame.pointee.best_effort_timestamp
        let samples = Int(frame.pointee.nb_samples)
        guard samples > 0, frame.pointee.sample_rate > 0 else { return }
        let time = timestamp == CFFmpeg_AV_NOPTS_VALUE() ? (expectedInput ?? 0) : parameters.seconds(timestamp)
        if let expected = expectedInput, abs(time - expected) > Self.maximumJump { try startEncoding() }
        let length = Double(samples) / Double(frame.pointee.sample_rate)
        expectedInput = time + length
        if let dropBefore, time + length <= dropBefore { return }
        guard let converted = try resample(frame), converted > 0 else { return }
        if origin == nil { origin = time }
        writeToFIFO(converted)
        trimBeforeStart()
        while av_audio_fifo_size(fifo) >= Self.frameSamples { encode(Self.frameSamples, emit) }
    }

    /// Drops the FIFO's samples before `dropBefore` (only before the first packet of a start).
    private func trimBeforeStart() {
        guard let target = dropBefore, let start = origin else { return }
        let needed = Int32(((target - start) * Double(Self.rate)).rounded())
        let dropped = min(max(needed, 0), av_audio_fifo_size(fifo))
        if dropped > 0 { av_audio_fifo_drain(fifo, dropped) }
        origin = start + Double(dropped) / Double(Self.rate)
        if dropped == max(needed, 0) { dropBefore = nil }
    }

    /// Encodes the FIFO's first `count` samples (a packet's worth, or the last few).
    private func encode(_ count: Int32, _ emit: (EncodedAudio) -> Void) {
        guard av_frame_make_writable(encoderFrame) >= 0 else { return }
        encoderFrame.pointee.nb_samples = count
        UnsafeMutableRawPointer(encoderFrame.pointee.extended_data).withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 1) {
            _ = av_audio_fifo_read(fifo, $0, count)
        }
        encoderFrame.pointee.pts = encodedSamples
        encodedSamples += Int64(count)
        guard avcodec_send_frame(encoder, encoderFrame) >= 0 else { return }
        receivePackets(emit)
    }

    private func receivePackets(_ emit: (EncodedAudio) -> Void) {
        while avcodec_receive_packet(encoder, encoded) == 0 {
            defer { av_packet_unref(encoded) }
            let rate = Double(Self.rate)
            emit(EncodedAudio(time: (origin ?? 0) + Double(encoded.pointee.pts) / rate,
                              duration: Double(encoded.pointee.duration) / rate, isDiscontinuity: discontinuity,
                              bytes: UnsafeRawBufferPointer(start: encoded.pointee.data, count: Int(encoded.pointee.size))))
            discontinuity = false
        }
    }

    /// A fresh encoder and an empty FIFO: the count of samples starts again at the next frame.
    private func startEncoding() throws(MediaError) {
        av_audio_fifo_reset(fifo)
        origin = nil
        encodedSamples = 0
        discontinuity = true
        drained = false
        avcodec_free_context(&encoder)
        encoder = try Self.makeEncoder()
    }

    // MARK: - Resampling

    /// Converts `frame` into `scratch` (a resampler made for its format first, when it changed);
    /// the number of 48 kHz stereo samples written.
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) -> Int32? {
        try prepareResampler(for: frame)
        let needed = Int(swr_get_out_samples(resampler, frame.pointee.nb_samples))
        if needed > scratchSamples {
            scratch.deallocate()
            scratchSamples = needed * 2
            scratch = .allocate(capacity: scratchSamples * Int(Self.channels))
        }
        var output: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(scratch).assumingMemoryBound(to: UInt8.self)
        let input = UnsafeMutableRawPointer(frame.pointee.extended_data).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let converted = swr_convert(resampler, &output, Int32(scratchSamples), input, frame.pointee.nb_samples)
        return converted >= 0 ? converted : nil
    }

    private func writeToFIFO(_ samples: Int32) {
        var data: UnsafeMutableRawPointer? = UnsafeMutableRawPointer(scratch)
        _ = av_audio_fifo_write(fifo, &data, samples)
    }

    /// Makes the resampler for `frame`'s format, rate and channel layout unless it has one for them
    /// (an unspecified layout is taken as the default one of its channel count).
    private func prepareResampler(for frame: UnsafeMutablePointer<AVFrame>) throws(MediaError) {
        var layout = AVChannelLayout()
        if frame.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC {
            av_channel_layout_default(&layout, frame.pointee.ch_layout.nb_channels)
        } else {
            av_channel_layout_copy(&layout, &frame.pointee.ch_layout)
        }
        if var current = resamplerInput, current.format == frame.pointee.format, current.rate == frame.pointee.sample_rate,
           av_channel_layout_compare(&current.layout, &layout) == 0 {
            av_channel_layout_uninit(&layout)
            return
        }
        if var old = resamplerInput?.layout { av_channel_layout_uninit(&old) }
        resamplerInput = (frame.pointee.format, frame.pointee.sample_rate, layout)
        swr_free(&resampler)
        var stereo = AVChannelLayout()
        av_channel_layout_default(&stereo, Self.channels)
        let made = swr_alloc_set_opts2(&resampler, &stereo, AV_SAMPLE_FMT_FLT, Self.rate, &layout,
                                       AVSampleFormat(rawValue: frame.pointee.format), frame.pointee.sample_rate, 0, nil)
        guard made >= 0, swr_init(resampler) >= 0 else {
            swr_free(&resampler)
            resamplerInput = nil
            av_channel_layout_uninit(&layout)
            throw .encodeFailed(reason: "cannot resample \(parameters.info.codec) audio (\(frame.pointee.sample_rate) Hz, "
                + "\(frame.pointee.ch_layout.nb_channels) channels)")
        }
    }

    // MARK: - Encoding

    /// The encoder's input frame: one packet of packed float stereo, its buffer made once.
    private func prepareEncoderFrame() throws(MediaError) {
        encoderFrame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        encoderFrame.pointee.sample_rate = Self.rate
        encoderFrame.pointee.nb_samples = Self.frameSamples
        av_channel_layout_default(&encoderFrame.pointee.ch_layout, Self.channels)
        let result = av_frame_get_buffer(encoderFrame, 0)
        guard result >= 0 else { throw .encodeFailed(reason: "no audio buffer: \(averrorDescription(result))") }
    }

    /// libopus at 48 kHz stereo, 20 ms packets, ``bitRate``; its time base is one sample.
    private static func makeEncoder() throws(MediaError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder_by_name("libopus"), let context = avcodec_alloc_context3(codec) else {
            throw .encodeFailed(reason: "this FFmpeg has no Opus encoder (libopus)")
        }
        context.pointee.sample_rate = rate
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLT
        av_channel_layout_default(&context.pointee.ch_layout, channels)
        context.pointee.bit_rate = bitRate
        context.pointee.time_base = AVRational(num: 1, den: rate)
        var options: OpaquePointer? = nil
        av_dict_set(&options, "frame_duration", "20", 0)
        defer { av_dict_free(&options) }
        let opened = avcodec_open2(context, codec, &options)
        guard opened >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&doomed)
            throw .encodeFailed(reason: "cannot open the Opus encoder: \(averrorDescription(opened))")
        }
        return context
    }
}
