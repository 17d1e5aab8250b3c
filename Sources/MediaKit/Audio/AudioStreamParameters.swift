import CFFmpeg

/// One audio stream as the audio thread needs it to decode: a copy of its codec parameters (the
/// demuxer's own belong to the decode thread and die with the source), its time base, and the
/// offset that puts its timestamps on the pictures' clock. Made once per source; immutable, so
/// it may cross from the decode thread to the audio thread.
final class AudioStreamParameters: @unchecked Sendable {
    let codecParameters: UnsafeMutablePointer<AVCodecParameters>
    /// Seconds per tick of the stream's timestamps.
    let timeBase: AVRational
    /// Seconds to subtract from the stream's times: the video stream's start.
    let offset: Double
    let info: AudioStreamInfo

    /// Nil when the parameters cannot be copied (out of memory).
    init?(stream: UnsafeMutablePointer<AVStream>, offset: Double) {
        guard let copy = avcodec_parameters_alloc() else { return nil }
        guard avcodec_parameters_copy(copy, stream.pointee.codecpar) >= 0 else {
            var doomed: UnsafeMutablePointer<AVCodecParameters>? = copy
            avcodec_parameters_free(&doomed)
            return nil
        }
        codecParameters = copy
        timeBase = stream.pointee.time_base
        self.offset = offset
        info = AudioStreamInfo(codec: String(cString: avcodec_get_name(copy.pointee.codec_id)),
                               channels: Int(copy.pointee.ch_layout.nb_channels), rate: Int(copy.pointee.sample_rate))
    }

    /// A stream without a demuxer: Opus packets of `channels` at `rate` (a shared camera's
    /// microphone), timed in µs on the pictures' clock. Nil when out of memory.
    init?(opusChannels channels: Int, rate: Int) {
        guard let parameters = avcodec_parameters_alloc() else { return nil }
        parameters.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        parameters.pointee.codec_id = AV_CODEC_ID_OPUS
        parameters.pointee.sample_rate = Int32(rate)
        av_channel_layout_default(&parameters.pointee.ch_layout, Int32(channels))
        codecParameters = parameters
        timeBase = AVRational(num: 1, den: 1_000_000)
        offset = 0
        info = AudioStreamInfo(codec: "opus", channels: channels, rate: rate)
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVCodecParameters>? = codecParameters
        avcodec_parameters_free(&doomed)
    }

    /// `ticks` of the stream in seconds on the pictures' clock.
    func seconds(_ ticks: Int64) -> Double {
        Double(ticks) * av_q2d(timeBase) - offset
    }
}
