import FilterKit
import Foundation
import MediaKit
import Testing

@Suite("Frame-accurate seeking", .timeLimit(.minutes(3)))
struct SeekTests {
    static let rate = 25
    static let frameCount = 50
    /// 2 s at 25 fps with a keyframe every 12 frames (and x264's default B-frames).
    static let clip = ClipSpec("seek-h264-g12.mp4", rate: rate, frameCount: frameCount,
                               codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12"])

    /// The frame a seek to `seconds` must give: the first at or after it, the last past the end.
    static func expectedIndex(_ seconds: Double, frameCount: Int = frameCount, rate: Int = rate) -> Int {
        min(frameCount - 1, max(0, Int((seconds * Double(rate) - 1e-6).rounded(.up))))
    }

    static func open(_ path: String) throws -> any SeekableVideoSource {
        let source = try InputSpec.file(path).open()
        return try #require(source as? any SeekableVideoSource, "\(path) should be seekable")
    }

    /// Checks that `frame` is frame `index` of `path`: its time, and its luma against ffmpeg's
    /// (closer to it than to the neighbouring frame, so that a one-frame slip cannot pass).
    static func expectFrame(_ frame: Frame, is index: Int, of path: String, rate: Int = rate,
                            frameCount: Int = frameCount, _ context: String) throws {
        let expectedTime = Double(index) / Double(rate)
        #expect(abs(frame.time - expectedTime) < 1e-6,
                "\(context): got the frame at \(frame.time) s, expected frame \(index) at \(expectedTime) s")
        let luma = frame.y.bytes
        let value = psnr(luma, try TestClips.referenceFrame(of: path, index: index, pixelFormat: "gray"))
        #expect(value >= 40, "\(context): luma PSNR against ffmpeg's frame \(index) is \(formatted(value)) dB")
        let neighbour = index == frameCount - 1 ? index - 1 : index + 1
        let neighbourValue = psnr(luma, try TestClips.referenceFrame(of: path, index: neighbour, pixelFormat: "gray"))
        #expect(neighbourValue < value,
                "\(context): closer to frame \(neighbour) (\(formatted(neighbourValue)) dB) than to frame \(index)")
    }

    @Test("seek gives the first frame at or after the time, then read continues",
          arguments: [0, 0.01, 0.44, 0.48, 0.5, 0.52, 1.0, 1.96, 5.0])
    func seekThenRead(_ seconds: Double) throws {
        let path = try Self.clip.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: seconds, into: frame)
        let index = Self.expectedIndex(seconds)
        try Self.expectFrame(frame, is: index, of: path, "seek to \(seconds) s")
        #expect(frame.sequence == index)

        let next = Frame(width: frame.width, height: frame.height)
        if index < Self.frameCount - 1 {
            #expect(try source.read(into: next), "read after seeking to \(seconds) s")
            try Self.expectFrame(next, is: index + 1, of: path, "read after seeking to \(seconds) s")
            #expect(next.sequence == index + 1)
        } else {
            #expect(try source.read(into: next) == false, "past the last frame, read must report the end")
        }
    }

    @Test("repeated seeks on one source, backwards, forwards and after the end")
    func seekSequence() throws {
        let path = try Self.clip.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        for seconds in [1.96, 0.0, 0.52, 5.0, 0.5, 1.0, 0.44] {
            try source.seek(to: seconds, into: frame)
            try Self.expectFrame(frame, is: Self.expectedIndex(seconds), of: path, "seek to \(seconds) s in a sequence")
        }
        // Read to the end, then seek back.
        while try source.read(into: frame) {}
        try source.seek(to: 0.3, into: frame)
        try Self.expectFrame(frame, is: Self.expectedIndex(0.3), of: path, "seek to 0.3 s after the end")
        #expect(try source.read(into: frame))
        #expect(abs(frame.time - Double(Self.expectedIndex(0.3) + 1) / 25) < 1e-6)
    }

    /// 2 s at 25 fps with one keyframe, at the start (and x264's default B-frames): every step
    /// forward decodes on from the frame delivered last, without seeking the input.
    static let oneKeyframe = ClipSpec("seek-h264-one-keyframe.mp4", rate: rate, frameCount: frameCount,
                                      codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "250"])

    @Test("steps forward one and ten frames decode on to the exact frame, after a seek and after a read")
    func stepsForwardDecodeOn() throws {
        let path = try Self.oneKeyframe.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: 0.8, into: frame)
        var index = 20
        for step in [1, 1, 10, 1, 3] {
            index += step
            try source.seek(to: Double(index) / 25, into: frame)
            try Self.expectFrame(frame, is: index, of: path, "a step of \(step) to frame \(index)")
        }
        #expect(try source.read(into: frame))
        try Self.expectFrame(frame, is: index + 1, of: path, "the read after the steps")
        try source.seek(to: Double(index + 2) / 25, into: frame)
        try Self.expectFrame(frame, is: index + 2, of: path, "a step after a read")
        try source.seek(to: 0.4, into: frame)
        try Self.expectFrame(frame, is: 10, of: path, "a step back seeks")
        try source.seek(to: 5, into: frame)
        try Self.expectFrame(frame, is: Self.frameCount - 1, of: path, "past the end: the last frame")
    }

    @Test("steps back come out exact, and playing on from there gives every frame in order")
    func stepsBackThenPlayOn() throws {
        let path = try Self.oneKeyframe.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: 1.6, into: frame)
        for index in stride(from: 39, through: 30, by: -1) {
            try source.seek(to: Double(index) / 25, into: frame)
            try Self.expectFrame(frame, is: index, of: path, "a step back to frame \(index)")
        }
        for index in 31...Self.frameCount - 1 {
            #expect(try source.read(into: frame), "playing on to frame \(index)")
            try Self.expectFrame(frame, is: index, of: path, "playing on after the steps back, frame \(index)")
        }
        #expect(try source.read(into: frame) == false, "and the end after the last")
    }

    @Test("a negative time gives the first frame")
    func seekNegative() throws {
        let path = try Self.clip.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: -3, into: frame)
        try Self.expectFrame(frame, is: 0, of: path, "seek to -3 s")
    }

    @Test("a non-finite time is refused with a message naming the input", arguments: [Double.nan, .infinity])
    func seekNonFinite(_ seconds: Double) throws {
        let path = try Self.clip.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        let error = #expect(throws: MediaError.self) { try source.seek(to: seconds, into: frame) }
        #expect(error?.description.contains(path) == true, "\(String(describing: error))")
        // The source is still usable.
        try source.seek(to: 0.52, into: frame)
        try Self.expectFrame(frame, is: 13, of: path, "seek to 0.52 s after a refused seek")
    }

    static let containers: [ClipSpec] = [
        ClipSpec("seek-h264.mkv", rate: rate, frameCount: frameCount,
                 codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12"]),
        ClipSpec("seek-vp9.webm", rate: rate, frameCount: frameCount,
                 codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "300k", "-g", "12"]),
        ClipSpec("seek-mpeg4.avi", rate: rate, frameCount: frameCount, codec: ["-c:v", "mpeg4", "-q:v", "3", "-g", "12"]),
        ClipSpec("seek-h264.ts", rate: rate, frameCount: frameCount,
                 codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12", "-f", "mpegts"]),
    ]

    @Test("seeks accurately in other containers", arguments: containers)
    func seekInContainer(_ clip: ClipSpec) throws {
        let path = try clip.make()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        for seconds in [1.0, 0.52, 1.96, 0.0] {
            try source.seek(to: seconds, into: frame)
            try Self.expectFrame(frame, is: Self.expectedIndex(seconds), of: path, "\(clip.name): seek to \(seconds) s")
        }
    }

    @Test("an mp4 cut with -c copy (edit list, pre-roll) decodes and seeks like ffmpeg")
    func editList() throws {
        let whole = try Self.clip.make()
        // Cut at 0.5 s: the stream starts at the keyframe at 0.48 s, and the edit list hides it.
        let path = TestClips.path("cut-edit-list.mp4")
        try TestClips.ffmpeg(["-ss", "0.5", "-i", whole, "-c", "copy", path])
        let expectedCount = try TestClips.ffmpeg(["-i", path, "-fps_mode", "passthrough", "-f", "rawvideo",
                                                  "-pix_fmt", "gray", "-"]).count / (160 * 120)
        let source = try Self.open(path)
        let decoded = try decodeAll(source, keep: 0)
        #expect(decoded.times.count == expectedCount, "decoded \(decoded.times.count), ffmpeg \(expectedCount)")
        #expect(abs((decoded.times.first ?? -1) - 0) < 1e-6, "first frame at \(decoded.times.first ?? -1) s")
        let first = try #require(decoded.kept)
        try Self.expectFrame(first, is: 0, of: path, frameCount: expectedCount, "first frame of the cut")

        let frame = Frame(width: 160, height: 120)
        for seconds in [0.52, 0.0, 1.0] {
            try source.seek(to: seconds, into: frame)
            try Self.expectFrame(frame, is: Self.expectedIndex(seconds, frameCount: expectedCount), of: path,
                                 frameCount: expectedCount, "cut clip: seek to \(seconds) s")
        }
    }

    /// H.264 with B-frames in an AVI whose index (`idx1`) is cut off: AVI stores no
    /// presentation times, only decode order, so FFmpeg's guess for each frame is its packet's
    /// decode time — two frames late (the B-frame delay) — and the last two frames, drained at
    /// the end, have none at all.
    static func aviWithoutTimestamps() throws -> String { try aviWithoutTimestampsMade.get() }

    /// Made once for every test that asks (a static is initialised once, also across threads).
    private static let aviWithoutTimestampsMade = Result { try aviWithoutIndex(frameCount: frameCount) }

    /// 4 s: without its index, this one declares 3.92 s, less than its last frame's time (3.96).
    static let longAVIWithoutTimestamps = Result { try aviWithoutIndex(frameCount: 100) }

    private static func aviWithoutIndex(frameCount: Int) throws -> String {
        let path = TestClips.path("seek-h264-no-index-\(frameCount).avi")
        let whole = try ClipSpec("seek-h264-b-frames-\(frameCount).avi", rate: rate, frameCount: frameCount,
                                 codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12", "-bf", "3"]).make()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        guard let index = bytes.lastRange(of: Data("idx1".utf8)) else {
            throw TestClipError(description: "\(whole) has no idx1 chunk to cut off")
        }
        try bytes[..<index.lowerBound].write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file whose frames lack timestamps plays and seeks by frame count",
          arguments: [0, 0.01, 0.52, 1.0, 1.9, 1.96, 1.99, 5.0])
    func seekWithoutTimestamps(_ seconds: Double) throws {
        let path = try Self.aviWithoutTimestamps()
        let source = try Self.open(path)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: seconds, into: frame)
        let index = Self.expectedIndex(seconds)
        try Self.expectFrame(frame, is: index, of: path, "AVI without timestamps: seek to \(seconds) s")
        if index < Self.frameCount - 1 {
            #expect(try source.read(into: frame))
            try Self.expectFrame(frame, is: index + 1, of: path, "AVI without timestamps: read after \(seconds) s")
        }
    }

    @Test("a file whose frames lack timestamps gives every frame its own time, the first at 0")
    func timesWithoutTimestamps() throws {
        let source = try Self.open(try Self.aviWithoutTimestamps())
        let times = try decodeAll(source).times
        let expected = (0..<Self.frameCount).map { Double($0) / Double(Self.rate) }
        #expect(times.count == expected.count && zip(times, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(times)")
    }

    @Test("a seek to the declared end shows the last frame, also when the file declares less than it holds")
    func seekToTheDeclaredEnd() throws {
        let path = try Self.longAVIWithoutTimestamps.get()
        let source = try Self.open(path)
        let duration = try #require(source.info.duration)
        #expect(duration < 3.96 - 1e-6, "the clip declares \(duration) s, its last frame is at 3.96 s")
        let player = Player(source: source)
        player.start()
        defer { player.stop() }
        player.pause()
        player.seek(to: duration)  // the seek slider dragged to its end
        var sought: Frame?
        while sought == nil, let frame = player.output.take(timeout: .seconds(5)) {
            if frame.time > 1 { sought = frame } else { player.pool.recycle(frame) }
        }
        let last = try #require(sought)
        try Self.expectFrame(last, is: 99, of: path, frameCount: 100, "seek to the declared end (\(duration) s)")
        player.pool.recycle(last)
    }

    @Test("a live source cannot seek")
    func liveSourceIsNotSeekable() throws {
        let source = try InputSpec.testPattern(width: 64, height: 48, rate: 10).open()
        #expect(!(source is any SeekableVideoSource))
    }
}
