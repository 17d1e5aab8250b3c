import CFFmpeg
import FilterKit

/// Encodes ``Frame``s to H.264 (``H264Encoder``) and muxes the packets with libavformat into one
/// destination: a file (fragmented MP4 for recordings) or a media server (flv over RTMP, RTSP,
/// MPEG-TS over SRT for publishing). Opening writes the header — for a server, connects.
///
/// Network I/O goes through `interruption`: a stalled connect or write fails when its deadline
/// passes or when another thread interrupts, instead of blocking the writer's thread for ever.
///
/// Not thread-safe: one thread opens, writes and finishes it. Owns every FFmpeg object it creates.
final class VideoWriter {
    /// Where the packets go and how a failure there reads.
    struct Destination {
        /// A path or a URL.
        let url: String
        /// libavformat's muxer: `mp4`, `flv`, `rtsp`, `mpegts`.
        let format: String
        /// Muxer options (`movflags`, `rtsp_transport`), given to `avformat_write_header`.
        var muxerOptions: [(String, String)] = []
        /// Protocol options (`rw_timeout`), given to `avio_open2`.
        var ioOptions: [(String, String)] = []
        /// The error for a failure with this reason ("cannot record PATH: …").
        let failure: (String) -> MediaError
        /// Whether the output has an AAC-LC stream (48 kHz stereo) beside the video: ``write(audio:at:)``.
        var hasAudio = false
        /// The container's metadata tags (`comment`: what a recording was filtered with).
        var metadata: [(String, String)] = []
    }

    let destination: Destination
    /// What the format context's interrupt callback points at, kept as long as the context: a
    /// caller's temporary (a shared recording's) was freed under it, and the callback crashed.
    private let interruption: Interruption?
    /// Nil when the packets come encoded (``init(destination:copying:width:height:frameRate:encoderName:interruption:)``).
    private let encoder: H264Encoder?
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    /// The first frame's time: the output starts at 0 with it.
    private var origin: Int64?
    private var lastTimestamp: Int64 = -1
    /// Packet bytes handed to the muxer (the measure for outputs without a byte stream: RTSP).
    private var packetBytes: Int64 = 0
    private var finished = false
    /// For ``write(unit:keyframe:at:)`` and ``write(audio:at:)``: allocated once.
    private var copyPacket: UnsafeMutablePointer<AVPacket>?
    /// The AAC stream, when the destination has one.
    private var audioStream: UnsafeMutablePointer<AVStream>?
    /// The last audio timestamp written (in samples): kept strictly increasing.
    private var lastAudioTimestamp: Int64 = -1

    /// The encoder in use, such as `libx264`.
    let encoderName: String

    /// Opens `destination` (creating the file or connecting) and writes the header. `preset`
    /// (`ultrafast` … `veryslow`) and `profile` are libx264's; `threads` the encoder's; the first
    /// of `encoders` that opens is used.
    init(destination: Destination, width: Int, height: Int, frameRate: Double, preset: String = "veryfast",
         profile: String? = nil, threads: Int = 1, encoders: [String],
         interruption: Interruption? = nil) throws(MediaError) {
        self.destination = destination
        self.interruption = interruption
        let (output, newStream) = try Self.allocate(destination, interruption: interruption)
        let globalHeader = output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
        let encoder: H264Encoder
        do throws(MediaError) {
            encoder = try H264Encoder(width: width, height: height, frameRate: frameRate, preset: preset,
                                      profile: profile, threads: threads, globalHeader: globalHeader,
                                      encoders: encoders)
        } catch {
            avformat_free_context(output)
            throw destination.failure(error.description)
        }
        (format, stream, self.encoder, encoderName) = (output, newStream, encoder, encoder.name)
        newStream.pointee.time_base = H264Encoder.timeBase
        newStream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        try open(parameters: avcodec_parameters_from_context(newStream.pointee.codecpar, encoder.context))
    }

    /// Opens `destination` for H.264 encoded elsewhere (a ``SharedEncode``'s units, ``write(unit:keyframe:at:)``),
    /// `width × height` at about `frameRate`, starting with `keyframe`, whose SPS and PPS become
    /// the stream's header; writes the header.
    init(destination: Destination, copying keyframe: UnsafeRawBufferPointer, width: Int, height: Int, frameRate: Double,
         encoderName: String, interruption: Interruption? = nil) throws(MediaError) {
        self.destination = destination
        self.interruption = interruption
        self.encoderName = encoderName
        encoder = nil
        (format, stream) = try Self.allocate(destination, interruption: interruption)
        copyPacket = av_packet_alloc()
        let parameters = stream.pointee.codecpar!
        parameters.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        parameters.pointee.codec_id = AV_CODEC_ID_H264
        parameters.pointee.width = Int32(width)
        parameters.pointee.height = Int32(height)
        parameters.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        parameters.pointee.color_range = AVCOL_RANGE_JPEG
        parameters.pointee.color_space = AVCOL_SPC_SMPTE170M
        let sets = AnnexB.parameterSets(in: keyframe)
        guard !sets.isEmpty, let extradata = av_mallocz(sets.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            release()
            throw destination.failure("the shared stream's keyframe carries no SPS/PPS")
        }
        extradata.copyMemory(from: sets, byteCount: sets.count)
        parameters.pointee.extradata = extradata.assumingMemoryBound(to: UInt8.self)
        parameters.pointee.extradata_size = Int32(sets.count)
        stream.pointee.time_base = H264Encoder.timeBase
        stream.pointee.avg_frame_rate = av_d2q(frameRate, 1000)
        try open(parameters: 0)
    }

    /// A new output context for `destination` with one stream.
    private static func allocate(_ destination: Destination, interruption: Interruption?) throws(MediaError)
        -> (UnsafeMutablePointer<AVFormatContext>, UnsafeMutablePointer<AVStream>) {
        var output: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&output, nil, destination.format, destination.url) >= 0, let output,
              let newStream = avformat_new_stream(output, nil) else {
            if let output { avformat_free_context(output) }
            throw destination.failure("this FFmpeg build cannot write \(destination.format)")
        }
        if let interruption { output.pointee.interrupt_callback = interruption.callback }
        for (key, value) in destination.metadata { av_dict_set(&output.pointee.metadata, key, value, 0) }
        if destination.hasAudio {
            guard let audio = avformat_new_stream(output, nil), AudioEncoderStage.describe(AudioTranscoder.aac, in: audio) else {
                avformat_free_context(output)
                throw destination.failure("cannot add an AAC stream")
            }
        }
        return (output, newStream)
    }

    /// After the stream's parameters were set (`parameters`: the result of setting them, < 0 a
    /// failure): opens the file or connection and writes the header.
    private func open(parameters: Int32) throws(MediaError) {
        guard let output = format else { return }
        if destination.hasAudio, output.pointee.nb_streams > 1 {
            audioStream = output.pointee.streams[1]
            if copyPacket == nil { copyPacket = av_packet_alloc() }
        }
        var result = parameters
        if result >= 0 && output.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            var options = Self.dictionary(destination.ioOptions)
            var callback = output.pointee.interrupt_callback
            result = avio_open2(&output.pointee.pb, destination.url, AVIO_FLAG_WRITE, &callback, &options)
            av_dict_free(&options)
        }
        if result >= 0 {
            var options = Self.dictionary(destination.muxerOptions)
            result = avformat_write_header(output, &options)
            av_dict_free(&options)
        }
        guard result >= 0 else {
            release()
            throw destination.failure(averrorDescription(result))
        }
    }

    deinit { release() }

    /// Bytes written so far: the file's or the connection's byte count, or for outputs without
    /// one (RTSP) the packets' bytes.
    var bytesWritten: Int64 {
        guard let pb = format?.pointee.pb else { return packetBytes }
        return max(0, avio_tell(pb))
    }

    /// Encodes `frame`, shown at `milliseconds` (any origin: the first frame's time becomes 0;
    /// kept strictly increasing), and writes the packets ready.
    func write(_ frame: Frame, at milliseconds: Int64) throws(MediaError) {
        guard !finished, let encoder else { return }
        do throws(MediaError) {
            try encoder.encode(frame, at: timestamp(milliseconds), output: mux)
        } catch {
            throw located(error)
        }
    }

    /// Writes an access unit encoded elsewhere (Annex B), shown at `milliseconds` (as for frames).
    /// The muxer reads `unit` in place (a packet without a buffer of its own: it copies what it keeps).
    func write(unit: UnsafeRawBufferPointer, keyframe: Bool, at milliseconds: Int64) throws(MediaError) {
        guard !finished, let packet = copyPacket, let base = unit.baseAddress else { return }
        defer { av_packet_unref(packet) }
        packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(unit.count)
        packet.pointee.pts = timestamp(milliseconds)
        packet.pointee.dts = packet.pointee.pts
        packet.pointee.flags = keyframe ? AV_PKT_FLAG_KEY : 0
        try mux(packet)
    }

    /// Writes an AAC packet (raw, as ``AudioEncoderStage`` makes them) whose first sample plays at
    /// `seconds` on the pictures' clock (the same origin as the frames' milliseconds; kept after
    /// the first frame and strictly increasing). Before the first frame, or without an audio
    /// stream, nothing is written. Returns whether it was.
    @discardableResult
    func write(audio: UnsafeRawBufferPointer, at seconds: Double) throws(MediaError) -> Bool {
        guard !finished, let audioStream, let origin, let packet = copyPacket, let base = audio.baseAddress else { return false }
        defer { av_packet_unref(packet) }
        let samples = Int64(((seconds * 1000 - Double(origin)) * Double(AudioTranscoder.rate) / 1000).rounded())
        guard samples > lastAudioTimestamp else { return false }
        lastAudioTimestamp = samples
        packet.pointee.data = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        packet.pointee.size = Int32(audio.count)
        packet.pointee.pts = samples
        packet.pointee.dts = samples
        packet.pointee.duration = Int64(AudioTranscoder.aac.frameSamples)
        packet.pointee.flags = AV_PKT_FLAG_KEY
        packet.pointee.stream_index = audioStream.pointee.index
        av_packet_rescale_ts(packet, AVRational(num: 1, den: AudioTranscoder.rate), audioStream.pointee.time_base)
        packetBytes &+= Int64(audio.count)
        let written = av_write_frame(format, packet)
        guard written >= 0 else { throw destination.failure("writing audio: \(averrorDescription(written))") }
        return true
    }

    /// The output's timestamp of a picture shown at `milliseconds`: from 0, strictly increasing.
    private func timestamp(_ milliseconds: Int64) -> Int64 {
        let origin = origin ?? milliseconds
        self.origin = origin
        lastTimestamp = max(milliseconds &- origin, lastTimestamp &+ 1)
        return lastTimestamp
    }

    /// Flushes the encoder, writes the trailer (the MP4 index; RTSP's TEARDOWN, which also
    /// closes its connections) and closes the output. The trailer is written even when the
    /// flush fails; the first error is thrown.
    func finish() throws(MediaError) {
        guard !finished, let format else { return }
        finished = true
        var failure: MediaError?
        do throws(MediaError) {
            try encoder?.flush(output: mux)
        } catch {
            failure = located(error)
        }
        let result = av_write_trailer(format)
        if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
        if let failure { throw failure }
        guard result >= 0 else { throw destination.failure("finishing: \(averrorDescription(result))") }
    }

    private func mux(_ packet: UnsafeMutablePointer<AVPacket>) throws(MediaError) {
        guard let format else { return }
        packet.pointee.stream_index = stream.pointee.index
        av_packet_rescale_ts(packet, H264Encoder.timeBase, stream.pointee.time_base)
        packetBytes &+= Int64(packet.pointee.size)
        let written = av_write_frame(format, packet)
        guard written >= 0 else { throw destination.failure("writing: \(averrorDescription(written))") }
    }

    /// An encoder's error as a failure of this destination (the muxer's are already).
    private func located(_ error: MediaError) -> MediaError {
        guard case .encodeFailed = error else { return error }
        return destination.failure(error.description)
    }

    private func release() {
        av_packet_free(&copyPacket)
        if let format {
            if format.pointee.pb != nil { avio_closep(&format.pointee.pb) }
            avformat_free_context(format)
        }
        format = nil
    }

    private static func dictionary(_ entries: [(String, String)]) -> OpaquePointer? {
        var dictionary: OpaquePointer?
        for (key, value) in entries { av_dict_set(&dictionary, key, value, 0) }
        return dictionary
    }
}
