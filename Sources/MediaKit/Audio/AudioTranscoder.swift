import CFFmpeg

/// Decodes one audio stream (any codec libavcodec has), down-mixes and resamples it with
/// libswresample to packed float stereo at 48 kHz — once — and gives the samples to the encoders
/// wanted now (``AudioEncoderStage``): 20 ms Opus packets (libopus) for listeners, AAC-LC
/// (FFmpeg's `aac`) for recordings and published streams.
///
/// Times are the source's, in seconds on the pictures' clock: counted in samples from the first
/// decoded frame after a start, so packets follow each other exactly; a jump of more than
/// ``maximumJump`` in the input's own timestamps starts the count again. Every buffer is made in
/// `init` (the resampler again on a change of input format, an encoder on a restart or when it is
/// turned on), so the steady state allocates nothing. Not thread-safe: the audio thread owns it.
final class AudioTranscoder {
    static let rate: Int32 = 48_000
    static let channels: Int32 = 2
    /// A gap or overlap in the input's timestamps beyond this is a discontinuity, not jitter.
    static let maximumJump = 0.1
    /// libopus at complexity 5 of 10: two thirds of the CPU of the default (the ffmpeg CLI on 60 s
    /// of pink noise under a tone at 96 kbit/s: 0.59 s against 0.88 s; signal-to-noise 14.9
    /// against 14.7 dB) — the cost is paid for as long as anybody listens.
    static let opus = AudioEncoderStage.Kind(codec: .opus, encoderName: "libopus", frameSamples: 960, bitRate: 96_000,
                                             planar: false, options: [("frame_duration", "20"), ("compression_level", "5")])
    /// FFmpeg's AAC encoder with its `fast` coder: half the CPU of the default `twoloop` (measured
    /// with the ffmpeg CLI on 60 s of pink noise under a tone at 128 kbit/s: 0.95 s against 1.75 s;
    /// signal-to-noise 19.7 against 20.4 dB), so a recording's sound stays within 3 % of a core.
    static let aac = AudioEncoderStage.Kind(codec: .aac, encoderName: "aac", frameSamples: 1024, bitRate: 128_000,
                                            planar: true, options: [("aac_coder", "fast")])

    /// Whether this FFmpeg can encode Opus (libopus).
    static var isAvailable: Bool { avcodec_find_encoder_by_name("libopus") != nil }

    let parameters: AudioStreamParameters
    private let decoder: UnsafeMutablePointer<AVCodecContext>
    private var resampler: OpaquePointer?
    /// What `resampler` was made for: the decoded frames' format, rate and layout.
    private var resamplerInput: (format: Int32, rate: Int32, layout: AVChannelLayout)?
    private let decoded: UnsafeMutablePointer<AVFrame>
    /// The resampler's output: `scratchSamples` stereo float samples.
    private var scratch: UnsafeMutablePointer<Float>
    private var scratchSamples = 8192
    /// The encoders, and whether each is wanted now (set before every packet by the pipeline).
    private let opusStage: AudioEncoderStage
    private let aacStage: AudioEncoderStage
    private var wanted = (opus: true, aac: false)

    /// Where the next decoded frame should start (seconds), to tell a jump from jitter.
    private var expectedInput: Double?
    /// Sound before this (seconds) is dropped: a seek's target.
    private var dropBefore: Double?
    /// After ``drain(_:)``: the encoders gave out their last packets and take nothing more.
    private var drained = false
    /// How fast the sound plays (``setTempo(_:)``): 1 as it is, nil silent.
    private var tempo: Double? = 1
    /// atempo while `tempo` is neither 1 nor nil.
    private var stretch: SoundTempo?

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
        decoded = av_frame_alloc()
        scratch = .allocate(capacity: scratchSamples * Int(Self.channels))
        opusStage = try AudioEncoderStage(Self.opus)
        aacStage = try AudioEncoderStage(Self.aac)
    }

    deinit {
        var decoderContext: UnsafeMutablePointer<AVCodecContext>? = decoder
        avcodec_free_context(&decoderContext)
        swr_free(&resampler)
        if var layout = resamplerInput?.layout { av_channel_layout_uninit(&layout) }
        var frame: UnsafeMutablePointer<AVFrame>? = decoded
        av_frame_free(&frame)
        scratch.deallocate()
    }

    /// Which encoders take the sound from the next packet on; one turned on starts afresh.
    func want(opus: Bool, aac: Bool) throws(MediaError) {
        if opus && !wanted.opus { try opusStage.start(timeScale: tempo ?? 1) }
        if aac && !wanted.aac { try aacStage.start(timeScale: tempo ?? 1) }
        wanted = (opus, aac)
    }

    /// Plays the sound `tempo` times as fast from the next packet on, its pitch kept (nil: none
    /// is given out); a change starts the encoders afresh, their count of samples scaled by it.
    func setTempo(_ tempo: Double?) throws(MediaError) {
        guard tempo != self.tempo else { return }
        self.tempo = tempo
        try startEncoding()
    }

    /// Starts over (a seek, a new start, a gap): what is buffered is dropped, sound before `time`
    /// (seconds) will be, and the next packet is marked as a discontinuity.
    func restart(at time: Double?) throws(MediaError) {
        avcodec_flush_buffers(decoder)
        dropBefore = time
        expectedInput = nil
        try startEncoding()
    }

    /// Decodes `packet` and hands out every packet it completes.
    func transcode(_ packet: UnsafeMutablePointer<AVPacket>, _ emit: (EncodedAudio) -> Void) throws(MediaError) {
        if drained { try restart(at: nil) }
        // A packet the decoder refuses (corrupt) is skipped: the next one goes on.
        guard avcodec_send_packet(decoder, packet) >= 0 else { return }
        try receiveFrames(emit)
    }

    /// The stream ended: decodes what the decoder holds, encodes the last (short) packets and
    /// the encoders' delayed ones. Until a restart, the next packet starts over.
    func drain(_ emit: (EncodedAudio) -> Void) throws(MediaError) {
        guard !drained else { return }
        avcodec_send_packet(decoder, nil)
        try receiveFrames(emit)
        if wanted.opus { opusStage.drain(emit) }
        if wanted.aac { aacStage.drain(emit) }
        drained = true
    }

    private func receiveFrames(_ emit: (EncodedAudio) -> Void) throws(MediaError) {
        while avcodec_receive_frame(decoder, decoded) == 0 {
            defer { av_frame_unref(decoded) }
            try take(decoded, emit)
        }
    }

    /// One decoded frame: resampled (after the start and any jump are settled), the samples
    /// before a seek's target dropped, the rest given to the encoders wanted.
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
        var skipped: Int32 = 0
        if let target = dropBefore {
            skipped = min(max(Int32(((target - time) * Double(Self.rate)).rounded()), 0), converted)
            if skipped < converted { dropBefore = nil }
        }
        let start = scratch + 2 * Int(skipped)
        let startTime = time + Double(skipped) / Double(Self.rate)
        if let stretch {
            stretch.process(start, count: converted - skipped, at: startTime) { write($0, count: $1, at: $2, emit) }
        } else if tempo != nil {
            write(start, count: converted - skipped, at: startTime, emit)
        }
    }

    /// Gives `count` samples at `time` (only the first after a start counts) to the encoders wanted.
    private func write(_ samples: UnsafeMutablePointer<Float>, count: Int32, at time: Double, _ emit: (EncodedAudio) -> Void) {
        if wanted.opus { opusStage.write(samples, count: count, at: time, emit) }
        if wanted.aac { aacStage.write(samples, count: count, at: time, emit) }
    }

    /// Fresh encoders: the count of samples starts again at the next frame.
    /// atempo starts afresh too (it holds sound of the old position), or is let go at tempo 1.
    private func startEncoding() throws(MediaError) {
        drained = false
        let scale = tempo ?? 1
        stretch = scale == 1 ? nil : try SoundTempo(tempo: scale)
        if wanted.opus { try opusStage.start(timeScale: scale) }
        if wanted.aac { try aacStage.start(timeScale: scale) }
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
}
