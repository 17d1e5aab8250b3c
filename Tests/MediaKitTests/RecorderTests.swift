import FilterKit
import Foundation
@testable import MediaKit
import Synchronization
import Testing

/// The recorder with real FFmpeg (libx264, the mp4 muxer) into real files, read back with the
/// decoder: duration, pictures, limits, and what it does when the encoder falls behind.
@Suite struct RecorderTests {
    /// A fresh, empty recordings folder for one test.
    static func folder(_ name: String) -> String {
        let path = TestClips.path("recordings-\(name)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Test-pattern frames of `width × height`.
    static func pattern(width: Int = 320, height: Int = 240) throws -> any VideoSource {
        try InputSpec.testPattern(width: width, height: height, rate: 30).open()
    }

    /// Offers a test-pattern frame every `interval` (on a schedule) for `seconds`; the first
    /// frame offered and how many were.
    @discardableResult
    static func feed(_ recorder: Recorder, from source: any VideoSource, seconds: Double,
                     interval: Duration = .milliseconds(33)) throws -> (first: Frame, count: Int) {
        let frame = Frame(width: source.info.width, height: source.info.height)
        let first = Frame(width: frame.width, height: frame.height)
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + .milliseconds(Int64(seconds * 1000))
        var count = 0
        while clock.now < end {
            _ = try source.read(into: frame)
            if count == 0 { first.copy(from: frame) }
            recorder.record(frame, filtered: true)
            count += 1
            // Paced as the player paces (on a schedule, not after each offer): the file's
            // times are the source's, so its length is the frames' times, not the wall clock's.
            let wait = clock.now.duration(to: start + interval * count)
            if interval > .zero, wait > .zero { usleep(UInt32(wait.seconds * 1e6)) }
        }
        return (first, count)
    }

    @Test func recordsPlayableH264OfTheRecordedLength() throws {
        let directory = Self.folder("length")
        let source = try Self.pattern()
        let recorder = Recorder(width: 320, height: 240, frameRate: 30, options: RecorderOptions(directory: directory))
        let started = try recorder.start(filtered: true)
        #expect(started.encoder == "libx264")
        #expect(recorder.wants(filtered: true) && !recorder.wants(filtered: false))
        let (first, offered) = try Self.feed(recorder, from: source, seconds: 1.5)
        let status = try #require(recorder.stop())
        #expect(!recorder.status.isActive && status.error == nil)
        let name = try #require(status.name)
        #expect(name.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.mp4/) != nil, "\(name)")
        let path = directory + "/" + name
        #expect(status.bytes == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int64))

        let playback = try InputSpec.file(path).open()
        #expect(playback.info.codec == "h264" && playback.info.width == 320 && playback.info.height == 240)
        let duration = try #require(playback.info.duration)
        // The file's times are the frames' (the pattern's 1/30 s steps), whenever they were offered,
        // with a picture held for each step a loaded machine fed late.
        let written = offered + status.heldFrames - status.droppedFrames
        #expect(abs(duration - Double(written) / 30) < 0.1, "\(written) frames written, the file lasts \(duration) s")
        let decoded = Frame(width: 320, height: 240)
        #expect(try playback.read(into: decoded))
        // Full range in, full range out: the picture comes back as it went in.
        let quality = psnr(decoded.y.bytes, first.y.bytes)
        #expect(quality > 30, "luma PSNR \(formatted(quality)) dB")
        var frames = 1
        while try playback.read(into: decoded) { frames += 1 }
        // Every frame offered is in the file or counted as dropped (a loaded machine can drop some);
        // so is every repeat of the held picture (a loaded machine may feed late).
        #expect(frames + status.droppedFrames == offered + status.heldFrames,
                "\(offered) offered, \(frames) in the file, \(status.droppedFrames) dropped, \(status.heldFrames) held")
    }

    @Test func refusesASecondRecordingAndStopsOnce() throws {
        let recorder = Recorder(width: 160, height: 120, frameRate: 30,
                                options: RecorderOptions(directory: Self.folder("twice")))
        try recorder.start(filtered: false)
        #expect(recorder.wants(filtered: false))
        #expect(throws: MediaError.self) { try recorder.start(filtered: true) }
        #expect(recorder.stop() != nil)
        #expect(recorder.stop() == nil)
    }

    @Test func aRecordingWithoutFramesLeavesNoFileAndSaysWhy() throws {
        let directory = Self.folder("empty")
        let recorder = Recorder(width: 160, height: 120, frameRate: 30, options: RecorderOptions(directory: directory))
        let started = try recorder.start(filtered: true)
        #expect(FileManager.default.fileExists(atPath: directory + "/" + (started.name ?? "")), "the file exists while recording")
        let status = try #require(recorder.stop())
        #expect(status.error == RecordingTake.noFramesReason && status.bytes == 0)
        #expect(recorder.status.error == RecordingTake.noFramesReason)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)

        // One frame is a recording.
        try recorder.start(filtered: true)
        try Self.feed(recorder, from: try Self.pattern(width: 160, height: 120), seconds: 0.1)
        let kept = try #require(recorder.stop())
        #expect(kept.error == nil && kept.bytes > 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [kept.name])
    }

    @Test func holdsTheLastPictureAtTheFrameRateWhileNoFrameComes() throws {
        let directory = Self.folder("held")
        let recorder = Recorder(width: 160, height: 120, frameRate: 30, options: RecorderOptions(directory: directory))
        let started = ContinuousClock.now
        try recorder.start(filtered: true)
        // One frame, then nothing (paused) for 2 s.
        let (first, _) = try Self.feed(recorder, from: try Self.pattern(width: 160, height: 120), seconds: 0.01, interval: .seconds(2))
        let untilStop = started.duration(to: .now).seconds
        let status = try #require(recorder.stop())
        let untilStopped = started.duration(to: .now).seconds
        #expect(status.error == nil)
        let playback = try InputSpec.file(directory + "/" + (status.name ?? "")).open()
        let duration = try #require(playback.info.duration)
        // The file covers the time up to the stop, held pictures included; finishing the file (which
        // a loaded machine makes slower) adds nothing to it.
        #expect(duration > untilStop - 0.25 && duration < untilStopped + 0.1,
                "recorded for \(untilStop)–\(untilStopped) s, the file lasts \(duration) s")
        // About 30 a second: each repeat waits a frame interval after the one before was encoded, so
        // a busy machine writes fewer (each then lasting longer: the file's length holds, above).
        let atTheRate = Int(duration * 30 * 0.6)
        #expect(status.heldFrames >= atTheRate - 1, "\(status.heldFrames) held in \(duration) s")
        let decoded = try decodeAll(playback, keep: 40)
        #expect(decoded.times.count >= atTheRate, "\(decoded.times.count) frames in \(duration) s: the held picture at 30 fps")
        let held = try #require(decoded.kept)
        #expect(psnr(held.y.bytes, first.y.bytes) > 30, "a second into the pause the file shows the held picture")
    }

    @Test func refusesToStartWhenFreeSpaceIsShort() throws {
        var options = RecorderOptions(directory: Self.folder("space"))
        options.minimumFreeBytes = .max
        let recorder = Recorder(width: 160, height: 120, frameRate: 30, options: options)
        do {
            try recorder.start(filtered: true)
            Issue.record("started with less free space than the minimum")
        } catch {
            #expect(error.description.contains("MB free"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: options.directory).isEmpty)
    }

    @Test func stopsByItselfAtTheSizeLimitLeavingAPlayableFile() throws {
        var options = RecorderOptions(directory: Self.folder("limit"))
        options.maximumBytes = 150_000
        let ended = Mutex<RecordingStatus?>(nil)
        let recorder = Recorder(width: 640, height: 360, frameRate: 30, options: options) { status in
            ended.withLock { $0 = status }
        }
        try recorder.start(filtered: true)
        let source = try Self.pattern(width: 640, height: 360)
        let deadline = ContinuousClock.now + .seconds(20)
        while ended.withLock({ $0 }) == nil && ContinuousClock.now < deadline {
            try Self.feed(recorder, from: source, seconds: 0.2)
        }
        let status = try #require(ended.withLock { $0 })
        #expect(status.error?.contains("size limit") == true, "\(status)")
        #expect(status.bytes >= 150_000)
        #expect(!recorder.status.isActive && recorder.status.error == status.error)
        #expect(!recorder.wants(filtered: true))
        let playback = try InputSpec.file(options.directory + "/" + status.name!).open()
        let frame = Frame(width: 640, height: 360)
        #expect(try playback.read(into: frame))
        // And the next recording starts.
        try recorder.start(filtered: true)
        #expect(recorder.status.isActive && recorder.status.error == nil)
        recorder.stop()
    }

    /// A take's queue holds 2 s of frames (a burst absorbed, not dropped) within 96 MB, 12 at the least.
    @Test func theQueueHoldsTwoSecondsWithinItsBytes() {
        let options = RecorderOptions(directory: "unused")
        #expect(options.queueCapacity(width: 1280, height: 720, frameRate: 25) == 50)
        #expect(options.queueCapacity(width: 1920, height: 1080, frameRate: 30) == 30)
        #expect(options.queueCapacity(width: 160, height: 120, frameRate: 15) == 30)
        #expect(options.queueCapacity(width: 3840, height: 2160, frameRate: 30) == 12)
        var fixed = options
        fixed.queueCapacity = 1
        #expect(fixed.queueCapacity(width: 1280, height: 720, frameRate: 25) == 1)
    }

    /// Sixty offers in a row to a one-frame queue in front of a slow ("medium") encoder: an offer
    /// that waited for room would drop nothing, so drops prove that offers do not wait.
    @Test func dropsRecordingFramesInsteadOfWaiting() throws {
        var options = RecorderOptions(directory: Self.folder("drop"))
        options.queueCapacity = 1
        options.preset = "medium"
        let recorder = Recorder(width: 1280, height: 720, frameRate: 30, options: options)
        try recorder.start(filtered: true)
        let source = try Self.pattern(width: 1280, height: 720)
        let frame = Frame(width: 1280, height: 720)
        _ = try source.read(into: frame)
        for _ in 0..<60 { recorder.record(frame, filtered: true) }
        let status = try #require(recorder.stop())
        #expect(status.droppedFrames > 0)
    }

    /// A plain MP4 file at `path` (the recorder's fragmenting options are not the point here).
    static func mp4(_ path: String) -> VideoWriter.Destination {
        VideoWriter.Destination(url: path, format: "mp4", muxerOptions: [],
                                failure: { .recordFailed(path: path, reason: $0) })
    }

    /// Without libx264 the writer falls back to the next encoder that opens (here: MPEG-4 part 2).
    @Test func fallsBackToAnotherEncoder() throws {
        let path = Self.folder("fallback") + "/fallback.mp4"
        let writer = try VideoWriter(destination: Self.mp4(path), width: 320, height: 240, frameRate: 30,
                                     encoders: ["no-such-encoder", "mpeg4"])
        #expect(writer.encoderName == "mpeg4")
        let source = try Self.pattern()
        let frame = Frame(width: 320, height: 240)
        for index in 0..<45 {
            _ = try source.read(into: frame)
            try writer.write(frame, at: Int64(index * 33))
        }
        try writer.finish()
        let playback = try InputSpec.file(path).open()
        #expect(playback.info.codec == "mpeg4")
        #expect(abs((playback.info.duration ?? 0) - 1.5) < 0.1)
        var frames = 0
        while try playback.read(into: frame) { frames += 1 }
        #expect(frames == 45)
        #expect(throws: MediaError.self) {
            _ = try VideoWriter(destination: Self.mp4(Self.folder("none") + "/x.mp4"), width: 320, height: 240,
                                frameRate: 30, encoders: ["no-such-encoder"])
        }
    }

    @Test func namesDoNotCollide() throws {
        let directory = Self.folder("names")
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let first = Recorder.newName(in: directory, now: now)
        #expect(first == "2026-11-18T11-06-40Z.mp4")
        #expect(FileManager.default.createFile(atPath: directory + "/" + first, contents: Data()))
        #expect(Recorder.newName(in: directory, now: now) == "2026-11-18T11-06-40Z-2.mp4")
    }
}
