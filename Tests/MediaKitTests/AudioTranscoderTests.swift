import CFFmpeg
import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// The sound path up to the Opus packets: demuxed with the pictures (``AudioDemux``), queued
/// (``AudioPacketQueue``) and transcoded (``AudioTranscoder``), on clips with a 440 Hz tone made
/// by the ffmpeg CLI — several codecs, channel layouts, rates and containers.
@Suite("Audio transcoding to Opus", .timeLimit(.minutes(3)))
struct AudioTranscoderTests {
    static let tone = 440.0

    /// A 2 s clip: testsrc2 pictures and the tone as `audio` (ffmpeg arguments), the sound
    /// starting `delay` s after the pictures.
    static func clip(_ name: String, rate: Int, channels: Int, audio: [String], delay: Double = 0) throws -> String {
        let sine = ["-f", "lavfi", "-i", "sine=frequency=\(Int(tone)):sample_rate=\(rate):duration=\(2 - delay)"]
        return try TestClips.clip(name, TestClips.lavfi(width: 160, height: 120, rate: 25, duration: 2)
            + (delay > 0 ? ["-itsoffset", "\(delay)"] : []) + sine
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-ac", "\(channels)"] + audio + ["-shortest"])
    }

    struct Packet {
        let time: Double
        let duration: Double
        let isDiscontinuity: Bool
        let bytes: [UInt8]
    }

    /// Every Opus packet of `path`'s sound, read with its pictures as the decode thread reads them
    /// (after a seek to `seek` when given), played at `tempo` (nil: silent), each item of the
    /// queue carried out as it comes.
    static func transcode(_ path: String, seek: Double? = nil, tempo: Double? = 1) throws -> (info: SourceInfo, packets: [Packet]) {
        let source = try InputSpec.file(path).open()
        let queue = AudioPacketQueue()
        queue.setWanted(true)
        queue.setTempo(tempo)
        source.routeAudio(to: queue)
        var transcoder: AudioTranscoder?
        var packets: [Packet] = []
        func pump() {
            while let item = queue.take(waiting: false) {
                AudioPipeline.handle(item, of: queue, with: &transcoder) { packet in
                    packets.append(Packet(time: packet.time, duration: packet.duration, isDiscontinuity: packet.isDiscontinuity,
                                          bytes: Array(packet.bytes.bindMemory(to: UInt8.self))))
                }
            }
        }
        let frame = Frame(width: source.info.width, height: source.info.height)
        if let seek { try #require(source as? any SeekableVideoSource).seek(to: seek, into: frame) }
        while try source.read(into: frame) { pump() }
        pump()
        #expect(queue.packetsDropped.value == 0)
        return (source.info, packets)
    }

    static let cases: [(name: String, rate: Int, channels: Int, audio: [String], codec: String, delay: Double)] = [
        ("ac3-51-48k.mkv", 48_000, 6, ["-c:a", "ac3"], "ac3", 0),
        ("ac3-51-48k.avi", 48_000, 6, ["-c:a", "ac3"], "ac3", 0),
        ("aac-stereo-44k.mp4", 44_100, 2, ["-c:a", "aac"], "aac", 0),
        ("mp3-stereo-44k.mkv", 44_100, 2, ["-c:a", "libmp3lame"], "mp3", 0),
        ("aac-late-start.mkv", 48_000, 2, ["-c:a", "aac"], "aac", 0.5),
    ]

    @Test("a clip's sound becomes contiguous 20 ms Opus packets on the pictures' clock", arguments: cases.indices)
    func transcodesWholeClip(_ index: Int) throws {
        let spec = Self.cases[index]
        let path = try Self.clip(spec.name, rate: spec.rate, channels: spec.channels, audio: spec.audio, delay: spec.delay)
        let (info, packets) = try Self.transcode(path)
        #expect(info.audio == AudioStreamInfo(codec: spec.codec, channels: spec.channels, rate: spec.rate))
        let first = try #require(packets.first, "\(spec.name): no Opus packet")
        let last = try #require(packets.last)
        // The source's own timeline (as ffprobe and the ffmpeg CLI see it): the first Opus
        // packet starts with the encoder's priming (312 samples) before the source's first sample,
        // the last ends with the source's last.
        let (start, end) = try Self.soundSpan(path)
        #expect(abs(first.time - (start - 312.0 / 48_000)) < 0.002, "\(spec.name): the first packet at \(first.time) s, the sound starts at \(start) s")
        #expect(abs(start - spec.delay) < 0.035, "\(spec.name): the sound starts at \(start) s (its codec's priming before \(spec.delay) s)")
        #expect(abs(last.time + last.duration - end) < 0.02, "\(spec.name): the last packet ends at \(last.time + last.duration) s, the sound at \(end) s")
        #expect(first.isDiscontinuity && packets.dropFirst().allSatisfy { !$0.isDiscontinuity })
        Self.expectContiguous(packets, spec.name)
        #expect(packets.dropLast().allSatisfy { abs($0.duration - 0.02) < 1e-9 }, "\(spec.name): packets of 20 ms")
        try Self.expectTone(packets, spec.name)
    }

    @Test("after a seek the sound starts at the seek's target, flagged")
    func startsAtSeekTarget() throws {
        let spec = Self.cases[2]
        let path = try Self.clip(spec.name, rate: spec.rate, channels: spec.channels, audio: spec.audio)
        let (_, packets) = try Self.transcode(path, seek: 1.2)
        let first = try #require(packets.first)
        #expect(first.time >= 1.2 - 0.01 && first.time < 1.2 + 0.01, "the first packet after seeking to 1.2 s is at \(first.time) s")
        #expect(first.isDiscontinuity)
        Self.expectContiguous(packets, "after the seek")
        let end = try Self.soundSpan(path).end
        #expect(abs(packets.last!.time + packets.last!.duration - end) < 0.02)
        try Self.expectTone(packets, "after the seek")
    }

    @Test("packets are whole microseconds apart on the wire, whatever the fraction of the first sample's time",
          arguments: [12.3456785, 0.0000005, 98_765.4321005])
    func packetTimesStepExactly(_ start: Double) throws {
        let stage = try AudioEncoderStage(AudioTranscoder.opus)
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 48_000)
        defer { samples.deallocate() }
        samples.initialize(repeating: 0, count: 2 * 48_000)
        var microseconds: [Int64] = []
        stage.write(samples, count: 48_000, at: start) { microseconds.append(Int64(($0.time * 1e6).rounded())) }
        let steps = Set(zip(microseconds, microseconds.dropFirst()).map { $1 - $0 })
        #expect(microseconds.count >= 45 && steps == [20_000], "starting at \(start) s: steps of \(steps.sorted()) µs")
    }

    @Test("at twice the speed the sound keeps its pitch, each 20 ms packet holding 40 ms of the source; silent, none")
    func playsAtTwiceTheSpeedWithItsPitch() throws {
        let spec = Self.cases[2]
        let path = try Self.clip(spec.name, rate: spec.rate, channels: spec.channels, audio: spec.audio)
        let (_, packets) = try Self.transcode(path, tempo: 2)
        let first = try #require(packets.first), last = try #require(packets.last)
        let steps = Set(zip(packets, packets.dropFirst()).map { (($1.time - $0.time) * 1e6).rounded() })
        #expect(steps == [40_000], "packets \(steps.sorted()) µs of the source apart")
        #expect(packets.dropLast().allSatisfy { abs($0.duration - 0.02) < 1e-9 }, "packets of 20 ms of sound")
        // The source's 2 s of sound, in about 1 s of it.
        let (start, end) = try Self.soundSpan(path)
        #expect(abs(first.time - start) < 0.03 && abs(last.time + 2 * last.duration - end) < 0.1, "\(first.time)…\(last.time) s")
        #expect(abs(Double(packets.count) - (end - start) / 0.04) < 4, "\(packets.count) packets for \(end - start) s")
        try Self.expectTone(packets, "at 2×")
        #expect(try Self.transcode(path, tempo: nil).packets.isEmpty, "a silent tempo gives no packet")
    }

    @Test("a clip without sound has no audio stream and gives no packet")
    func silentClip() throws {
        let path = try TestClips.clip("no-audio.mkv", TestClips.lavfi(width: 160, height: 120, rate: 25, duration: 1)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let (info, packets) = try Self.transcode(path)
        #expect(info.audio == nil)
        #expect(packets.isEmpty)
    }

    /// Where `path`'s sound starts and ends on the pictures' clock (seconds): its start time less
    /// the video's (as `ffprobe` reports them), and its length as the ffmpeg CLI decodes it.
    static func soundSpan(_ path: String) throws -> (start: Double, end: Double) {
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/ffprobe")
        probe.arguments = ["-v", "error", "-show_entries", "stream=codec_type,start_time,sample_rate", "-of", "csv=p=0", path]
        let pipe = Pipe()
        probe.standardOutput = pipe
        try probe.run()
        let lines = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        probe.waitUntilExit()
        func field(_ type: String, _ index: Int) throws -> Double {
            let line = try #require(lines.first { $0.hasPrefix(type) }, "ffprobe lists no \(type) stream in \(path)")
            return try #require(Double(line.split(separator: ",")[index]), "ffprobe: \(line)")
        }
        // video: codec_type,start_time; audio: codec_type,sample_rate,start_time
        let start = try field("audio", 2) - field("video", 1)
        let samples = try TestClips.ffmpeg(["-i", path, "-map", "0:a:0", "-ac", "1", "-f", "s16le", "-"]).count / 2
        return (start, start + Double(samples) / (try field("audio", 1)))
    }

    /// Each packet starts where the one before ended (to the microsecond): monotonic, no gaps.
    static func expectContiguous(_ packets: [Packet], _ context: String) {
        for (previous, next) in zip(packets, packets.dropFirst()) where abs(next.time - (previous.time + previous.duration)) > 1e-6 {
            Issue.record("\(context): a packet at \(next.time) s after one at \(previous.time) s of \(previous.duration) s")
            return
        }
    }

    /// Decodes the Opus packets back (libavcodec) and checks the sound is the tone: loud enough,
    /// and crossing zero at 440 Hz (±3 %).
    static func expectTone(_ packets: [Packet], _ context: String) throws {
        let samples = try OpusDecoding.decode(packets.map(\.bytes))
        let middle = samples[samples.count / 4 ..< samples.count * 3 / 4]
        let rms = (middle.map { Double($0 * $0) }.reduce(0, +) / Double(middle.count)).squareRoot()
        #expect(rms > 0.01, "\(context): the decoded sound is near silence (RMS \(rms))")
        let crossings = zip(middle, middle.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        let frequency = Double(crossings) / (Double(middle.count) / 48_000)
        #expect(abs(frequency - tone) < tone * 0.03, "\(context): the decoded tone is \(frequency) Hz, not \(tone) Hz")
    }
}

/// Opus back to samples with libavcodec, for checking what the transcoder made.
enum OpusDecoding {
    /// The left channel of `packets` (48 kHz stereo Opus), as floats.
    static func decode(_ packets: [[UInt8]]) throws -> [Float] {
        let codec = try #require(avcodec_find_decoder(AV_CODEC_ID_OPUS))
        var context = avcodec_alloc_context3(codec)
        defer { avcodec_free_context(&context) }
        context?.pointee.sample_rate = 48_000
        av_channel_layout_default(&context!.pointee.ch_layout, 2)
        try #require(avcodec_open2(context, codec, nil) >= 0)
        var packet = av_packet_alloc()
        var frame = av_frame_alloc()
        defer { av_packet_free(&packet); av_frame_free(&frame) }
        var samples: [Float] = []
        for bytes in packets {
            try #require(av_new_packet(packet, Int32(bytes.count)) >= 0)
            bytes.withUnsafeBufferPointer { packet!.pointee.data.update(from: $0.baseAddress!, count: bytes.count) }
            #expect(avcodec_send_packet(context, packet) >= 0)
            av_packet_unref(packet)
            while avcodec_receive_frame(context, frame) == 0 {
                samples += leftChannel(frame!)
                av_frame_unref(frame)
            }
        }
        return samples
    }

    private static func leftChannel(_ frame: UnsafeMutablePointer<AVFrame>) -> [Float] {
        let count = Int(frame.pointee.nb_samples)
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let data = frame.pointee.extended_data[0]!
        switch format {
        case AV_SAMPLE_FMT_FLTP: return Array(UnsafeBufferPointer(start: UnsafeRawPointer(data).assumingMemoryBound(to: Float.self), count: count))
        case AV_SAMPLE_FMT_FLT:
            let interleaved = UnsafeRawPointer(data).assumingMemoryBound(to: Float.self)
            return (0..<count).map { interleaved[$0 * 2] }
        default:
            let interleaved = UnsafeRawPointer(data).assumingMemoryBound(to: Int16.self)
            return (0..<count).map { Float(interleaved[$0 * 2]) / 32768 }
        }
    }
}
