import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// A player nobody takes frames from (`setConsumersPresent(false)`): a file is not decoded, its
/// clock and position run on, and returning consumers get the frame at the clock's position.
/// Real decoder, the 1 s, 20 fps clip of ``PlayerTests``; wide timing margins. Serialized: the
/// tests block while they wait, and must not hold more than one of the few test threads.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PlayerIdleTests {
    /// Takes and recycles everything already on its way.
    static func drain(_ player: Player) {
        while let frame = player.output.take(timeout: .milliseconds(150)) { player.pool.recycle(frame) }
    }

    /// A started player that showed its first frame and was then told nobody watches (with
    /// what was on its way taken); the caller stops it.
    static func startedUnwatched(speed: Double, loops: Bool = true) throws -> Player {
        let player = try PlayerTests.makePlayer(speed: speed, loops: loops)
        player.start()
        _ = PlayerTests.take(1, from: player)
        #expect(player.setConsumersPresent(false) == false, "nothing to catch up with yet")
        drain(player)
        return player
    }

    @Test func nobodyWatchingStopsDecodingWhileThePositionFollowsTheClock() throws {
        let player = try Self.startedUnwatched(speed: 0.5)  // 2 s of playing for the 1 s clip
        defer { player.stop() }
        let decoded = player.framesDecoded.value
        let start = player.playbackState.position
        let began = ContinuousClock.now
        #expect(player.output.take(timeout: .milliseconds(600)) == nil, "no frame goes out while nobody watches")
        #expect(player.framesDecoded.value == decoded, "frames were decoded while nobody watched")
        let moved = player.playbackState.position - start
        let expected = began.duration(to: .now).seconds * 0.5
        #expect(abs(moved - expected) < 0.1, "the position moved \(moved) s in \(expected / 0.5) s at × 0.5")

        let asked = ContinuousClock.now
        let clockPosition = start + began.duration(to: asked).seconds * 0.5
        #expect(player.setConsumersPresent(true), "a fresh frame must be announced")
        let frame = try #require(player.output.take(timeout: .seconds(2)))
        let arrived = ContinuousClock.now
        #expect(asked.duration(to: arrived) < .seconds(1), "the catch-up frame took \(asked.duration(to: arrived))")
        #expect(frame.isDiscontinuity)
        // The frame where the clock is: between where it was when asked and where it was when the
        // frame came (a loaded machine seeks later), a frame (0.05 s) of rounding past that.
        let clockAtArrival = start + began.duration(to: arrived).seconds * 0.5
        #expect(frame.time >= clockPosition - 1e-6 && frame.time < clockAtArrival + 0.05,
                "catch-up frame at \(frame.time) s, the clock at \(clockPosition)–\(clockAtArrival) s")
        let caughtUp = frame.time
        player.pool.recycle(frame)  // from here on the pool may refill it
        let next = PlayerTests.take(2, from: player).map(\.time)
        #expect(next.count == 2 && next[0] > caughtUp, "playback goes on from the caught-up frame \(caughtUp): \(next)")
    }

    @Test func theClockLoopsAtTheEndWhileNobodyWatches() throws {
        let player = try Self.startedUnwatched(speed: 2)
        defer { player.stop() }
        // The position runs on to the end and starts again from 0: a loop, which decodes nothing.
        let decoded = player.framesDecoded.value
        var last = player.playbackState.position
        var highest = last
        let wrapped = player.waitForState(timeout: .seconds(5)) { state in
            defer { last = state.position; highest = max(highest, state.position) }
            return state.position < last
        }
        let state = try #require(wrapped, "the position did not wrap: it reached \(highest) s")
        #expect(highest > 0.5, "the position went back before the end: from \(highest) s")
        #expect(state.isPlaying && !state.hasEnded)
        #expect(player.framesDecoded.value == decoded, "the loop decoded frames while nobody watched")
        Self.drain(player)
        #expect(player.setConsumersPresent(true))
        let frame = try #require(player.output.take(timeout: .seconds(2)))
        #expect(abs(frame.time - player.playbackState.position) < 1e-6)
        player.pool.recycle(frame)
    }

    @Test func theEndStopsPlaybackWhileNobodyWatchesAndShowsTheLastFrameAfter() throws {
        let player = try Self.startedUnwatched(speed: 4, loops: false)
        defer { player.stop() }
        let ended = player.waitForState(timeout: .seconds(5)) { $0.hasEnded }
        let state = try #require(ended, "the end never came: \(player.playbackState)")
        #expect(!state.isPlaying, "\(state)")
        #expect(player.setConsumersPresent(true))
        let frame = try #require(player.output.take(timeout: .seconds(2)))
        #expect(abs(frame.time - 0.95) < 1e-6, "the last frame, not \(frame.time)")
        player.pool.recycle(frame)
        #expect(player.output.take(timeout: .milliseconds(300)) == nil, "ended: nothing more")
    }

    @Test func aPauseWhileNobodyWatchesHoldsThePositionForTheReturningViewer() throws {
        let player = try Self.startedUnwatched(speed: 0.5)
        defer { player.stop() }
        let start = player.playbackState.position
        try #require(player.waitForState(timeout: .seconds(5)) { $0.position >= start + 0.1 } != nil,
                     "the position does not follow the clock")
        player.pause()
        // The decode thread stops the position where the pause finds it, then waits for a command:
        // were the clock still running, it would never settle.
        let settled = player.waitForState(timeout: .seconds(5), idle: true) { !$0.isPlaying }
        let paused = try #require(settled, "the decode thread did not settle after the pause").position
        #expect(player.playbackState.position == paused, "the position moved while paused")
        #expect(player.setConsumersPresent(true))
        let frame = try #require(player.output.take(timeout: .seconds(2)))
        // The first frame at or after the held position (frames are 0.05 s apart).
        #expect(frame.time >= paused - 1e-6 && frame.time < paused + 0.05, "frame \(frame.time) for \(paused)")
        player.pool.recycle(frame)
        #expect(player.output.take(timeout: .milliseconds(300)) == nil, "still paused")
    }

    /// A file whose seeks wait until the test lets them go on (a slow disk or server): a seek
    /// interrupted meanwhile fails as FFmpeg's does ("Immediate exit requested").
    final class SlowSeek: SeekableVideoSource {
        let inner: any SeekableVideoSource
        /// Signalled when a seek begins; the seek waits for `proceed`.
        let seekBegan = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        init(_ inner: any SeekableVideoSource) { self.inner = inner }
        var info: SourceInfo { inner.info }
        var keepsPlayedPictures = false
        var playsBackward = false
        var preparesLoopIn: Double?
        func decodeAhead() -> Bool { false }
        func read(into frame: Frame) throws(MediaError) -> Bool { try inner.read(into: frame) }
        func read(into picture: DecodedPicture) throws(MediaError) -> Bool { try inner.read(into: picture) }
        func seek(to seconds: Double, into frame: Frame) throws(MediaError) {
            seekBegan.signal()
            _ = proceed.wait(timeout: .now() + 10)
            if interruption.isRequested { throw .readFailed(input: info.name, reason: "Immediate exit requested") }
            try inner.seek(to: seconds, into: frame)
        }
        func verifyUnchanged() throws(MediaError) { try inner.verifyUnchanged() }
        var onWarning: (String) -> Void {
            get { inner.onWarning }
            set { inner.onWarning = newValue }
        }
        var interruption: Interruption { inner.interruption }
    }

    @Test func aSwitchDuringTheCatchUpSeekPlaysTheNewSource() throws {
        let clip = try PlayerTests.clip()
        let slow = SlowSeek(try #require(try InputSpec.file(clip).open() as? any SeekableVideoSource))
        let player = Player(source: slow)
        player.start()
        defer { player.stop() }
        _ = PlayerTests.take(1, from: player)
        player.setConsumersPresent(false)
        Self.drain(player)
        #expect(player.setConsumersPresent(true))  // the catch-up seek starts, slowly
        try #require(slow.seekBegan.wait(timeout: .now() + 5) == .success, "no catch-up seek")
        try player.switchSource(to: try InputSpec.file(clip).open())  // interrupts it
        slow.proceed.signal()
        let times = PlayerTests.take(6, from: player).map(\.time)
        let state = player.playbackState
        #expect(state.error == nil && state.isPlaying && state.isOnline, "the interrupted seek failed playback: \(state)")
        #expect(times.count == 6 && times == times.sorted(), "the new source does not play on: \(times)")
    }

    @Test func aLiveSourceIsReadWhetherOrNotAnybodyWatches() throws {
        let player = Player(source: try InputSpec.testPattern(width: 64, height: 48, rate: 30).open())
        player.start()
        defer { player.stop() }
        #expect(player.setConsumersPresent(false) == false)
        let times = PlayerTests.take(5, from: player).map(\.time)
        #expect(times.count == 5, "a live source must keep being read")
    }

    @Test func clockGivesTheMediaTimeAtAnInstant() {
        let clock = ContinuousClock()
        let start = clock.now
        var playback = PlaybackClock(clock: clock, speed: 2)
        #expect(playback.mediaTime(at: start) == nil)
        playback.anchor(10, at: start)
        #expect(playback.mediaTime(at: start.advanced(by: .milliseconds(500))) == 11)
        let instant = start.advanced(by: .seconds(3))
        #expect(playback.mediaTime(at: playback.deadline(for: 13.5, now: start)) == 13.5)
        #expect(playback.mediaTime(at: instant) == 16)
    }
}
