import CFFmpeg

/// libavfilter's `atempo` on the ``AudioTranscoder``'s 48 kHz packed float stereo: the sound
/// played `tempo` times as fast with its pitch kept (0.5…2 is what the page offers; atempo takes
/// 0.5…100). Its output's sample k is the input's at k × `tempo`: whoever stamps it scales the
/// count by `tempo`. The graph and its two frames are made in `init` (again for a new tempo or a
/// restart: atempo keeps what it overlaps). Audio thread only.
final class SoundTempo {
    let tempo: Double
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private let source: UnsafeMutablePointer<AVFilterContext>
    private let sink: UnsafeMutablePointer<AVFilterContext>
    private var input: UnsafeMutablePointer<AVFrame>?
    private var output: UnsafeMutablePointer<AVFrame>?
    /// Input samples taken so far (the next input frame's time stamp, in samples).
    private var taken: Int64 = 0
    /// The source's time (seconds) of the first sample taken: atempo's output starts there,
    /// though it gives its first samples only once it has taken a window's worth.
    private(set) var startTime: Double?

    init(tempo: Double) throws(MediaError) {
        self.tempo = tempo
        graph = avfilter_graph_alloc()
        input = av_frame_alloc()
        output = av_frame_alloc()
        let stereo = "sample_rate=\(AudioTranscoder.rate):sample_fmt=flt:channel_layout=stereo:time_base=1/\(AudioTranscoder.rate)"
        var made: (source: UnsafeMutablePointer<AVFilterContext>?, tempo: UnsafeMutablePointer<AVFilterContext>?,
                   sink: UnsafeMutablePointer<AVFilterContext>?) = (nil, nil, nil)
        let built = avfilter_graph_create_filter(&made.source, avfilter_get_by_name("abuffer"), "in", stereo, nil, graph) >= 0
            && avfilter_graph_create_filter(&made.tempo, avfilter_get_by_name("atempo"), "tempo", "tempo=\(tempo)", nil, graph) >= 0
            && avfilter_graph_create_filter(&made.sink, avfilter_get_by_name("abuffersink"), "out", nil, nil, graph) >= 0
            && avfilter_link(made.source, 0, made.tempo, 0) >= 0 && avfilter_link(made.tempo, 0, made.sink, 0) >= 0
            && avfilter_graph_config(graph, nil) >= 0
        guard built, let source = made.source, let sink = made.sink, let frame = input else {
            avfilter_graph_free(&graph)
            av_frame_free(&input)
            av_frame_free(&output)
            throw .encodeFailed(reason: "libavfilter cannot make atempo=\(tempo)")
        }
        self.source = source
        self.sink = sink
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = AudioTranscoder.rate
        av_channel_layout_default(&frame.pointee.ch_layout, AudioTranscoder.channels)
    }

    deinit {
        avfilter_graph_free(&graph)
        av_frame_free(&input)
        av_frame_free(&output)
    }

    /// Passes `count` packed stereo samples, the first at `time` (seconds of the source), through
    /// atempo and gives `body` every stretch of samples it gives out now (valid during the call)
    /// with the time its output started at (``startTime``).
    func process(_ samples: UnsafeMutablePointer<Float>, count: Int32, at time: Double,
                 _ body: (UnsafeMutablePointer<Float>, Int32, Double) -> Void) {
        guard count > 0, let input, let output else { return }
        if startTime == nil { startTime = time }
        input.pointee.nb_samples = count
        // A buffer of its own when the graph still holds the last one's (else it is reused).
        guard prepareBuffer(input) else { return }
        input.pointee.extended_data[0]!.withMemoryRebound(to: Float.self, capacity: Int(count) * 2) {
            $0.update(from: samples, count: Int(count) * 2)
        }
        input.pointee.pts = taken
        taken += Int64(count)
        guard av_buffersrc_add_frame_flags(source, input, Int32(AV_BUFFERSRC_FLAG_KEEP_REF)) >= 0 else { return }
        while av_buffersink_get_frame(sink, output) >= 0 {
            defer { av_frame_unref(output) }
            guard let data = output.pointee.extended_data[0] else { continue }
            body(UnsafeMutableRawPointer(data).assumingMemoryBound(to: Float.self), output.pointee.nb_samples, startTime ?? time)
        }
    }

    /// `frame`'s buffer, writable and large enough for its `nb_samples`: kept when nothing else
    /// holds it and it is, else a new one.
    private func prepareBuffer(_ frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        if let buffer = frame.pointee.buf.0, av_buffer_is_writable(buffer) != 0,
           Int(buffer.pointee.size) >= Int(frame.pointee.nb_samples) * 2 * MemoryLayout<Float>.size {
            return true
        }
        let samples = frame.pointee.nb_samples
        av_frame_unref(frame)
        frame.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
        frame.pointee.sample_rate = AudioTranscoder.rate
        av_channel_layout_default(&frame.pointee.ch_layout, AudioTranscoder.channels)
        // Room for more than this frame: the next ones reuse it.
        frame.pointee.nb_samples = max(samples, 8192)
        guard av_frame_get_buffer(frame, 0) >= 0 else { return false }
        frame.pointee.nb_samples = samples
        return true
    }
}
