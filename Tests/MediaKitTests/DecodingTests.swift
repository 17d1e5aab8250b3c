import FilterKit
import Foundation
import MediaKit
import Testing

/// A clip to generate: its file name, the ffmpeg arguments that make it and what it holds.
struct ClipSpec: Sendable, CustomTestStringConvertible {
    let name: String
    let arguments: [String]
    let width: Int
    let height: Int
    let frameCount: Int
    let rate: Int

    /// `frameCount` frames of testsrc2 at `rate` fps encoded with `codec` (extra ffmpeg arguments).
    init(_ name: String, width: Int = 160, height: Int = 120, rate: Int = 10, frameCount: Int = 10,
         source: String = "testsrc2", codec: [String]) {
        self.name = name
        self.width = width
        self.height = height
        self.frameCount = frameCount
        self.rate = rate
        arguments = TestClips.lavfi(width: width, height: height, rate: rate,
                                    duration: Double(frameCount) / Double(rate), source: source) + codec
    }

    var testDescription: String { name }

    func make() throws -> String { try TestClips.clip(name, arguments) }
}

/// Everything read from a source, with one frame kept for pixel checks.
struct DecodedClip {
    var times: [Double] = []
    var kept: Frame?
}

/// Reads `source` to its end (at most `limit` frames), keeping a copy of frame `keep`.
func decodeAll(_ source: any VideoSource, keep: Int? = nil, limit: Int = 1000) throws -> DecodedClip {
    let frame = Frame(width: source.info.width, height: source.info.height)
    var result = DecodedClip()
    while result.times.count < limit, try source.read(into: frame) {
        if result.times.count == keep {
            let copy = Frame(width: frame.width, height: frame.height)
            copy.copy(from: frame)
            result.kept = copy
        }
        result.times.append(frame.time)
    }
    return result
}

@Suite("Decoding codecs, containers and pixel formats", .timeLimit(.minutes(3)))
struct DecodingTests {
    static let codecs: [ClipSpec] = [
        ClipSpec("h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ClipSpec("hevc.mkv", codec: ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-x265-params", "log-level=error"]),
        ClipSpec("vp9.webm", codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"]),
        ClipSpec("vp8.webm", codec: ["-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k"]),
        ClipSpec("mpeg4.avi", codec: ["-c:v", "mpeg4", "-q:v", "3"]),
        ClipSpec("mjpeg.mov", codec: ["-c:v", "mjpeg", "-q:v", "3"]),
        ClipSpec("h264.ts", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-f", "mpegts"]),
    ]

    /// Opens, checks the info, decodes every frame and compares the luma of frame 5 to ffmpeg's.
    static func checkDecodes(_ clip: ClipSpec, seekableRequired: Bool = true) throws {
        let path = try clip.make()
        let source = try InputSpec.file(path).open()
        if seekableRequired {
            #expect(source is any SeekableVideoSource, "\(clip.name) should open as a seekable source")
        }
        #expect(source.info.width == clip.width)
        #expect(source.info.height == clip.height)
        #expect(source.info.name == path)
        #expect(source.info.isLive == false)
        if let duration = source.info.duration {
            let length = Double(clip.frameCount) / Double(clip.rate)
            #expect(abs(duration - length) <= 0.25, "duration of \(clip.name): \(duration) s")
        } else {
            Issue.record("\(clip.name) has no duration")
        }
        if let rate = source.info.frameRate {
            #expect(abs(rate - Double(clip.rate)) < 0.01, "frame rate of \(clip.name): \(rate)")
        }

        let decoded = try decodeAll(source, keep: 5)
        #expect(decoded.times.count == clip.frameCount, "\(clip.name) decoded \(decoded.times.count) frames")
        #expect(zip(decoded.times, decoded.times.dropFirst()).allSatisfy { $0 < $1 },
                "times of \(clip.name) must increase: \(decoded.times)")
        if let first = decoded.times.first {
            #expect(abs(first) < 1e-3, "first frame of \(clip.name) at \(first) s")
        }
        if let last = decoded.times.last {
            let expected = Double(clip.frameCount - 1) / Double(clip.rate)
            #expect(abs(last - expected) < 1e-3, "last frame of \(clip.name) at \(last) s, expected \(expected)")
        }
        let frame = try #require(decoded.kept)
        let reference = try TestClips.referenceFrame(of: path, index: 5, pixelFormat: "gray")
        let value = psnr(frame.y.bytes, reference)
        print("\(clip.name) (\(source.info.codec)): \(decoded.times.count) frames, frame 5 luma PSNR \(formatted(value)) dB")
        #expect(value >= 40, "luma PSNR of \(clip.name) frame 5: \(formatted(value)) dB")
    }

    @Test("decodes every frame of each codec and container", arguments: codecs)
    func decodesCodec(_ clip: ClipSpec) throws {
        // MPEG-TS is accepted either way (the demuxer seeks by byte position), but it must decode.
        try Self.checkDecodes(clip, seekableRequired: !clip.name.hasSuffix(".ts"))
    }

    static var av1Encoder: [String]? {
        if TestClips.hasEncoder("libaom-av1") {
            return ["-c:v", "libaom-av1", "-cpu-used", "8", "-row-mt", "1", "-crf", "40", "-b:v", "0"]
        }
        if TestClips.hasEncoder("librav1e") { return ["-c:v", "librav1e", "-speed", "10"] }
        if TestClips.hasEncoder("libsvtav1") { return ["-c:v", "libsvtav1", "-preset", "12"] }
        return nil
    }

    @Test("decodes AV1 in Matroska", .enabled(if: av1Encoder != nil, "the ffmpeg CLI has no AV1 encoder"))
    func decodesAV1() throws {
        let clip = ClipSpec("av1.mkv", codec: try #require(Self.av1Encoder))
        do {
            try Self.checkDecodes(clip)
        } catch MediaError.unsupportedCodec(let input, let codec) {
            try Test.cancel("the FFmpeg libraries have no \(codec) decoder for \(input)")
        }
    }

    static let pixelFormats: [ClipSpec] = [
        ClipSpec("odd-642x362.mp4", width: 642, height: 362, rate: 10, frameCount: 4,
                 codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ClipSpec("odd-17x11.mkv", width: 17, height: 11, rate: 10, frameCount: 4, source: "testsrc",
                 codec: ["-c:v", "ffv1", "-pix_fmt", "yuv420p"]),
        ClipSpec("yuv422p.mp4", width: 320, height: 240, codec: ["-c:v", "libx264", "-pix_fmt", "yuv422p"]),
        ClipSpec("yuv444p.mkv", width: 320, height: 240, codec: ["-c:v", "libx264", "-pix_fmt", "yuv444p"]),
        ClipSpec("rgb24-png.mov", width: 320, height: 240, codec: ["-c:v", "png", "-pix_fmt", "rgb24"]),
        ClipSpec("bgr0-ffv1.mkv", width: 320, height: 240, codec: ["-c:v", "ffv1", "-pix_fmt", "bgr0"]),
        ClipSpec("yuv420p10.mkv", width: 320, height: 240, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p10le"]),
        ClipSpec("yuvj420p.avi", width: 322, height: 242, codec: ["-c:v", "mjpeg", "-pix_fmt", "yuvj420p", "-q:v", "2"]),
        ClipSpec("yuvj422p.mov", width: 320, height: 240, codec: ["-c:v", "mjpeg", "-pix_fmt", "yuvj422p", "-q:v", "2"]),
        ClipSpec("gray-png.mov", width: 320, height: 240, codec: ["-c:v", "png", "-pix_fmt", "gray"]),
        ClipSpec("gray10-ffv1.mkv", width: 320, height: 240, codec: ["-c:v", "ffv1", "-pix_fmt", "gray10le"]),
        ClipSpec("gray-untagged.mkv", width: 320, height: 240, codec: ["-c:v", "ffv1", "-pix_fmt", "gray", "-color_range", "unknown"]),
        ClipSpec("pal8-png.mov", width: 320, height: 240, codec: ["-c:v", "png", "-pix_fmt", "pal8"]),
        ClipSpec("animated.gif", width: 320, height: 240, codec: ["-c:v", "gif"]),
        ClipSpec("yuva420p-ffv1.mkv", width: 320, height: 240, codec: ["-c:v", "ffv1", "-pix_fmt", "yuva420p"]),
        ClipSpec("nv12-raw.mkv", width: 320, height: 240, codec: ["-c:v", "rawvideo", "-pix_fmt", "nv12"]),
        ClipSpec("gray-mjpeg.avi", width: 320, height: 240, codec: ["-c:v", "mjpeg", "-pix_fmt", "gray", "-q:v", "2"]),
    ]

    /// Frame 2 against ffmpeg's own conversion of the same decoded frame: plane by plane in the
    /// frame format (full-range BT.601 4:2:0), then as the browser gets it, through JPEGEncoder at
    /// quality 90. The RGB reference goes through 4:2:0 too: against a full-chroma reference,
    /// testsrc2's sharp colour edges alone cost 4:2:2, 4:4:4 and RGB sources 28–33 dB.
    @Test("decodes odd sizes and non-4:2:0, RGB, 10-bit and full-range formats to the right colours",
          arguments: pixelFormats)
    func decodesPixelFormat(_ clip: ClipSpec) throws {
        let path = try clip.make()
        let source = try InputSpec.file(path).open()
        #expect(source is any SeekableVideoSource)
        #expect(source.info.width == clip.width && source.info.height == clip.height)
        let decoded = try decodeAll(source, keep: 2)
        #expect(decoded.times.count == clip.frameCount)
        let frame = try #require(decoded.kept)

        let yuv = try TestClips.referenceFrame(of: path, index: 2, pixelFormat: "yuvj420p")
        let lumaCount = frame.y.width * frame.y.height, chromaCount = frame.u.width * frame.u.height
        try #require(yuv.count == lumaCount + 2 * chromaCount)
        let planes = [psnr(frame.y.bytes, Array(yuv[0..<lumaCount])),
                      psnr(frame.u.bytes, Array(yuv[lumaCount..<lumaCount + chromaCount])),
                      psnr(frame.v.bytes, Array(yuv[(lumaCount + chromaCount)...]))]
        #expect(planes.allSatisfy { $0 >= 40 }, "Y, Cb, Cr PSNR of \(clip.name): \(planes.map(formatted)) dB")

        let ours = try rgbThroughJPEG(frame, name: "\(clip.name)-frame2.jpg")
        let reference = try TestClips.referenceFrame(of: path, index: 2, pixelFormat: "rgb24", intermediate: "yuvj420p")
        try #require(ours.count == reference.count && ours.count == clip.width * clip.height * 3)
        let value = psnr(ours, reference)
        print("PSNR \(clip.name) frame 2: Y/Cb/Cr \(planes.map(formatted).joined(separator: "/")) dB, "
            + "RGB through JPEG q90 \(formatted(value)) dB")
        // JPEG's own loss on testsrc2's sharp edges: 35 dB leaves room at 320x240; a 17x11 picture is all edges.
        let minimum = clip.width >= 64 ? 35.0 : 30.0
        #expect(value >= minimum, "RGB PSNR of \(clip.name) frame 2 through JPEG: \(formatted(value)) dB")
    }

    @Test("scales to the requested output size")
    func scalesToOutputSize() throws {
        let path = try ClipSpec("h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]).make()
        let source = try InputSpec.file(path).open(SourceOptions(outputSize: (width: 81, height: 47)))
        #expect(source.info.width == 81 && source.info.height == 47)
        let decoded = try decodeAll(source)
        #expect(decoded.times.count == 10)
    }

    @Test("decodes the same with several decoder threads")
    func decodesWithThreads() throws {
        let path = try ClipSpec("h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]).make()
        let single = try decodeAll(try InputSpec.file(path).open(), keep: 7)
        let threaded = try decodeAll(try InputSpec.file(path).open(SourceOptions(decoderThreads: 0)), keep: 7)
        #expect(single.times == threaded.times)
        let a = try #require(single.kept), b = try #require(threaded.kept)
        #expect(a.y.bytes == b.y.bytes && a.u.bytes == b.u.bytes && a.v.bytes == b.v.bytes)
    }
}
