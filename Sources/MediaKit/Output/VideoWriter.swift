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
    }

    let destination: Destination
    private let encoder: H264Encoder
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private let stream: UnsafeMutablePointer<AVStream>
    /// The first frame's time: the output starts at 0 with it.
    private var origin: Int64?
    private var lastTimestamp: Int64 = -1
    /// Packet bytes handed to the muxer (the measure for outputs without a byte stream: RTSP).
    private var packetBytes: Int64 = 0
    private var finished = false

    /// The encoder in use, such as `libx264`.
    var encoderName: String { encoder.name }

    /// Opens `destination` (creating the file or connecting) and writes the header. `preset`
    /// (`ultrafast` … `veryslow`) and `profile` are libx264's; `threads` the encoder's; the first
    /// of `encoders` that opens is used.
    init(destination: Destination, width: Int, height: Int, frameRate: Double, preset: String = "veryfast",
         profile: String? = nil, threads: Int = 1, encoders: [String],
         interruption: Interruption? = nil) throws(MediaError) {
        self.destination = destination
        var output: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&output, nil, destination.format, destination.url) >= 0, let output,
              let newStream = avformat_new_stream(output, nil) else {
            if let output { avformat_free_context(output) }
            throw destination.failure("this FFmpeg build cannot write \(destination.format)")
        }
        if let interruption { output.pointee.interrupt_callback = interruption.callback }
        format = output
        stream = newStream
        let globalHeader = output.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0
        do throws(MediaError) {
            encoder = try H264Encoder(width: width, height: height, frameRate: frameRate, preset: preset,
                                      profile: profile, threads: threads, globalHeader: globalHeader,
                                      encoders: encoders)
        } catch {
            avformat_free_context(output)
            format = nil
            throw destination.failure(error.description)
        }
        newStream.pointee.time_base = H264Encoder.timeBase
        newStream.pointee.avg_frame_rate = encoder.context.pointee.framerate
        var result = avcodec_parameters_from_context(newStream.pointee.codecpar, encoder.context)
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
        guard !finished else { return }
        let origin = origin ?? milliseconds
        self.origin = origin
        let timestamp = max(milliseconds &- origin, lastTimestamp &+ 1)
        lastTimestamp = timestamp
        do throws(MediaError) {
            try encoder.encode(frame, at: timestamp, output: mux)
        } catch {
            throw located(error)
        }
    }

    /// Flushes the encoder, writes the trailer (the MP4 index; RTSP's TEARDOWN, which also
    /// closes its connections) and closes the output. The trailer is written even when the
    /// flush fails; the first error is thrown.
    func finish() throws(MediaError) {
        guard !finished, let format else { return }
        finished = true
        var failure: MediaError?
        do throws(MediaError) {
            try encoder.flush(output: mux)
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
