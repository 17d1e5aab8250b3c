import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// Real-time playback on a real decoder: pacing, pause, frame-accurate seek, loop and end.
/// Timing checks are behaviour (wide margins), not performance.
@Suite struct PlayerTests {
    /// 1 s at 20 fps, a keyframe every 8 frames.
    static func clip() throws -> String {
        try TestClips.clip("player-20fps.mp4", TestClips.lavfi(width: 160, height: 120, rate: 20, duration: 1)
            + ["-c:v", "libx264", "-g", "8", "-pix_fmt", "yuv420p"])
    }

    static func makePlayer(speed: Double = 1, loops: Bool = true) throws -> Player {
        let source = try InputSpec.file(try clip()).open()
        return Player(source: source, options: PlaybackOptions(speed: speed, loops: loops))
    }

    /// Takes `count` frames (recycling them) and returns their times and arrival instants.
    static func take(_ count: Int, from player: Player) -> [(time: Double, at: ContinuousClock.Instant)] {
        var frames: [(Double, ContinuousClock.Instant)] = []
        while frames.count < count, let frame = player.output.take(timeout: .seconds(5)) {
            frames.append((frame.time, .now))
            player.pool.recycle(frame)
        }
        return frames
    }

    @Test func pacesFramesByTimestamp() throws {
        let player = try Self.makePlayer()
        let started = ContinuousClock.now
        player.start()
        defer { player.stop() }
        let frames = Self.take(11, from: player)
        try #require(frames.count == 11)
        // Wall time follows media time (frames may be skipped by a slow taker: compare the two).
        // Never early: no frame comes before its time since the start (a late taker only adds to
        // that); and not slower than the clock beyond what a busy machine's scheduling adds.
        let elapsed = frames[0].at.duration(to: frames[10].at).seconds
        let media = frames[10].time - frames[0].time
        #expect(media >= 0.5 - 1e-6)
        let sinceStart = started.duration(to: frames[10].at).seconds
        #expect(sinceStart >= frames[10].time - 0.02, "the frame at \(frames[10].time) s came \(sinceStart) s after the start")
        #expect(elapsed < media * 1.5 + 0.3, "\(media) s of video took \(elapsed) s")
    }

    @Test func speedFactorPlaysFaster() throws {
        let player = try Self.makePlayer(speed: 4)
        player.start()
        defer { player.stop() }
        let frames = Self.take(11, from: player)
        try #require(frames.count == 11)
        let elapsed = frames[0].at.duration(to: frames[10].at).seconds
        let media = frames[10].time - frames[0].time
        // Twice the time × 4 takes is still half what × 1 would: room for a busy machine's
        // scheduling, none for a speed ignored.
        #expect(elapsed < media / 2, "\(media) s of video at × 4 took \(elapsed) s")
    }

    @Test func pauseStopsFramesAndSeekWhilePausedDeliversTheExactFrame() throws {
        let player = try Self.makePlayer()
        player.start()
        defer { player.stop() }
        _ = Self.take(2, from: player)
        player.pause()
        // Drain what was already on its way, then nothing more may come.
        while let frame = player.output.take(timeout: .milliseconds(100)) { player.pool.recycle(frame) }
        #expect(player.output.take(timeout: .milliseconds(300)) == nil)
        #expect(player.playbackState.isPlaying == false)

        player.seek(to: 0.62)  // frames are 0.05 s apart: the first at or after 0.62 is 0.65
        let frame = try #require(player.output.take(timeout: .seconds(2)))
        #expect(abs(frame.time - 0.65) < 1e-6)
        #expect(frame.isDiscontinuity, "the first frame after a seek says so")
        #expect(abs(player.playbackState.position - 0.65) < 1e-6)
        player.pool.recycle(frame)
        #expect(player.output.take(timeout: .milliseconds(200)) == nil, "a paused seek delivers one frame")

        player.play()
        let next = try #require(player.output.take(timeout: .seconds(2)))
        #expect(abs(next.time - 0.7) < 1e-6, "playback resumes after the sought frame")
        #expect(!next.isDiscontinuity)
        player.pool.recycle(next)
    }

    @Test func pausedBeforeStartStillShowsTheFirstFrameAndOnlyIt() throws {
        let player = try Self.makePlayer()
        player.pause()
        player.start()
        defer { player.stop() }
        let first = try #require(player.output.take(timeout: .seconds(2)), "a paused player shows its first picture")
        #expect(first.time == 0)
        #expect(first.isDiscontinuity)
        player.pool.recycle(first)
        #expect(player.output.take(timeout: .milliseconds(300)) == nil, "and then waits")
        #expect(player.playbackState.isPlaying == false)

        player.play()
        let next = try #require(player.output.take(timeout: .seconds(2)))
        #expect(abs(next.time - 0.05) < 1e-6, "playback goes on from the shown frame")
        player.pool.recycle(next)
    }

    /// A file whose first read waits until the test lets it go on (a stream that takes a while
    /// to start).
    final class SlowStart: VideoSource {
        let inner: any VideoSource
        /// Signalled when the first read begins; it waits for `proceed`.
        let firstReadBegan = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        private var reads = 0
        init(_ inner: any VideoSource) {
            self.inner = inner
        }
        var info: SourceInfo { inner.info }
        func read(into frame: Frame) throws(MediaError) -> Bool {
            reads += 1
            if reads == 1 {
                firstReadBegan.signal()
                _ = proceed.wait(timeout: .now() + 10)
            }
            return try inner.read(into: frame)
        }
        func read(into picture: DecodedPicture) throws(MediaError) -> Bool { try inner.read(into: picture) }
        var onWarning: (String) -> Void {
            get { inner.onWarning }
            set { inner.onWarning = newValue }
        }
        var interruption: Interruption { inner.interruption }
    }

    @Test func pausedWhileTheFirstFrameDecodesShowsThatFrameThenPlaysOnInOrder() throws {
        let source = SlowStart(try InputSpec.file(try Self.clip()).open())
        let player = Player(source: source, options: PlaybackOptions(loops: true))
        player.start()
        defer { player.stop() }
        try #require(source.firstReadBegan.wait(timeout: .now() + 5) == .success)
        player.pause()  // while the first read is under way
        source.proceed.signal()
        let first = try #require(player.output.take(timeout: .seconds(2)))
        #expect(first.time == 0, "the frame decoded when the pause came is the one shown")
        player.pool.recycle(first)
        #expect(player.output.take(timeout: .milliseconds(300)) == nil)
        player.play()
        let times = Self.take(3, from: player).map(\.time)
        #expect(times.count == 3 && times == times.sorted() && times.first.map { $0 > 0 } == true,
                "playback goes on forwards from the shown frame: \(times)")
    }

    @Test func stopsOnTheLastFrameWithoutLoop() throws {
        let player = try Self.makePlayer(speed: 8, loops: false)
        player.start()
        defer { player.stop() }
        // A latest-wins queue may skip frames for a slow taker; the last one is never skipped.
        var frames = Self.take(1, from: player)
        while frames.last.map({ $0.time < 0.95 - 1e-6 }) == true {
            let next = Self.take(1, from: player)
            if next.isEmpty { break }
            frames += next
        }
        #expect(frames.count >= 10 && frames.count <= 20)
        #expect(player.output.take(timeout: .milliseconds(300)) == nil, "nothing after the last frame")
        #expect(abs((frames.last?.time ?? 0) - 0.95) < 1e-6)
        #expect(player.playbackState.hasEnded)
        #expect(abs(player.playbackState.position - 0.95) < 1e-6)
        player.play()  // play after the end starts over
        let first = try #require(player.output.take(timeout: .seconds(2)))
        #expect(first.time == 0)
        player.pool.recycle(first)
    }

    @Test func loopsAtTheEndByDefault() throws {
        let player = try Self.makePlayer(speed: 4)
        player.start()
        defer { player.stop() }
        let times = Self.take(30, from: player).map(\.time)
        try #require(times.count == 30)
        let wrap = zip(times, times.dropFirst()).first { $1 < $0 }
        #expect(wrap.map { $0.0 > 0.7 && $0.1 < 0.3 } == true, "playback starts over after the end: \(times)")
    }

    @Test func refusesBadSpeedsAndLiveSeeks() throws {
        let player = try Self.makePlayer()
        #expect(throws: MediaError.self) { try player.setSpeed(0) }

        let live = Player(source: try InputSpec.testPattern(width: 64, height: 48, rate: 30).open())
        #expect(!live.seek(to: 1))
        #expect(live.playbackState.isLive && live.playbackState.duration == nil)
    }

    @Test func seekingAbsurdlyFarLandsOnTheLastFrame() throws {
        let source = try #require(try InputSpec.file(try Self.clip()).open() as? SeekableVideoSource)
        let frame = Frame(width: source.info.width, height: source.info.height)
        for position in [1e300, Double(Int64.max), 1e9] {
            try source.seek(to: position, into: frame)
            #expect(abs(frame.time - 0.95) < 1e-6, "seek to \(position)")
        }
    }

    @Test func clockMapsMediaTimeToDeadlines() {
        let clock = ContinuousClock()
        let start = clock.now
        var playback = PlaybackClock(clock: clock, speed: 2)
        #expect(playback.deadline(for: 10, now: start) == start)  // the first frame anchors
        #expect(playback.deadline(for: 11, now: start) == start.advanced(by: .milliseconds(500)))
        playback.setSpeed(1, keeping: 11, at: start.advanced(by: .seconds(3)))
        #expect(playback.deadline(for: 12, now: start) == start.advanced(by: .seconds(4)))
        playback.invalidate()
        #expect(!playback.isAnchored)
    }
}
