import FilterKit
import Foundation
import Synchronization
@testable import MediaKit
import Testing

/// `Player.switchSource`: a running player changes from a live source to a file (scaled to the
/// player's frame size) and back, keeping its pool, output and play/pause state; or opens the
/// new source itself (`switchSource(opening:)`), failing or retrying as a source does.
@Suite struct SourceSwitchTests {
    /// 2 s at 25 fps, 320x240, opened at the player's 160x120.
    static func scaledClip() throws -> any VideoSource {
        let path = try TestClips.clip("switch-320x240-25fps.mp4", TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
        return try InputSpec.file(path).open(SourceOptions(outputSize: (160, 120)))
    }

    /// The next frame marked as a discontinuity (the ones before it are recycled).
    static func nextDiscontinuity(_ player: Player) -> Frame? {
        while let frame = player.output.take(timeout: .seconds(5)) {
            if frame.isDiscontinuity { return frame }
            player.pool.recycle(frame)
        }
        return nil
    }

    @Test func switchesFromLiveToAFileAndBack() throws {
        let player = Player(source: try InputSpec.testPattern(width: 160, height: 120, rate: 30).open())
        player.start()
        defer { player.stop() }
        #expect(player.output.take(timeout: .seconds(5)).map { player.pool.recycle($0) } != nil)
        #expect(player.info.isLive)

        try player.switchSource(to: try Self.scaledClip())
        #expect(!player.info.isLive && player.info.width == 160)
        #expect(abs((player.playbackState.duration ?? 0) - 2) < 0.05)
        // The first frame of the new source comes marked; frames already queued may come first.
        let frame = try #require(Self.nextDiscontinuity(player))
        #expect(frame.time < 0.05 && frame.width == 160 && frame.height == 120)
        player.pool.recycle(frame)
        // The new source seeks (frame-accurately: 1.2 s is frame 30 at 25 fps).
        player.seek(to: 1.2)
        let sought = try #require(Self.nextDiscontinuity(player))
        #expect(abs(sought.time - 1.2) < 0.001, "\(sought.time)")
        player.pool.recycle(sought)

        try player.switchSource(to: try InputSpec.testPattern(width: 160, height: 120, rate: 30).open())
        #expect(player.info.isLive && player.playbackState.duration == nil)
        #expect(!player.seek(to: 1))
        #expect(player.output.take(timeout: .seconds(5)).map { player.pool.recycle($0) } != nil)
    }

    @Test func refusesASourceOfAnotherSize() throws {
        let player = Player(source: try InputSpec.testPattern(width: 160, height: 120, rate: 30).open())
        #expect(throws: MediaError.self) {
            try player.switchSource(to: try InputSpec.testPattern(width: 320, height: 240, rate: 30).open())
        }
        #expect(player.info.width == 160)
    }

    @Test func takesTheSizeOfASourceOfAnotherSizeWhenItFollows() throws {
        var options = PlaybackOptions()
        options.sizeFollowsSource = true
        let player = Player(source: try InputSpec.testPattern(width: 160, height: 120, rate: 30).open(), options: options)
        player.start()
        defer { player.stop() }
        #expect(player.output.take(timeout: .seconds(5)).map { player.pool.recycle($0) } != nil)
        let path = try TestClips.clip("switch-320x240-25fps.mp4", TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-g", "25", "-pix_fmt", "yuv420p"])
        try player.switchSource(to: try InputSpec.file(path).open())
        let frame = try #require(Self.nextDiscontinuity(player))
        #expect(frame.width == 320 && frame.height == 240)
        #expect(player.pool.width == 320 && player.pool.height == 240)
        player.pool.recycle(frame)
        // And back, opened on the decode thread.
        player.switchSource(opening: { () throws(MediaError) in try Self.openPattern() },
                            info: .opening("test", width: 160, height: 120), interruption: Interruption())
        let back = try #require(Self.nextDiscontinuity(player))
        #expect(back.width == 160 && back.height == 120 && player.pool.width == 160)
        player.pool.recycle(back)
    }

    /// Waits (5 s at most) for the player's state to satisfy `condition`, checked at every change.
    static func eventually(_ player: Player, _ condition: (PlaybackState) -> Bool) -> PlaybackState {
        player.waitForState(timeout: .seconds(5), until: condition) ?? player.playbackState
    }

    /// The test pattern at the player's size.
    static func openPattern() throws(MediaError) -> any VideoSource {
        try InputSpec.testPattern(width: 160, height: 120, rate: 30).open()
    }

    @Test func opensTheNewSourceItselfWhenItTakesOver() throws {
        let player = Player(source: try Self.scaledClip())
        player.start()
        defer { player.stop() }
        let opened = Mutex(0)
        player.switchSource(opening: { () throws(MediaError) in
            opened.withLock { $0 += 1 }
            return try Self.openPattern()
        }, info: try Self.openPattern().info, interruption: Interruption())
        #expect(player.info.isLive && player.playbackState.duration == nil, "the state is the new source's at once")
        let frame = try #require(Self.nextDiscontinuity(player))
        #expect(frame.width == 160 && opened.withLock { $0 } == 1)
        player.pool.recycle(frame)
    }

    @Test func aFileThatCannotBeOpenedStopsPlaybackWithTheReason() throws {
        let player = Player(source: try InputSpec.testPattern(width: 160, height: 120, rate: 30).open())
        player.start()
        defer { player.stop() }
        let clip = try Self.scaledClip()
        let missing = TestClips.path("gone-\(UUID().uuidString).mp4")
        player.switchSource(opening: { () throws(MediaError) in try InputSpec.file(missing).open() },
                            info: clip.info, interruption: Interruption())
        let failed = Self.eventually(player) { !$0.isOnline }
        #expect(!failed.isOnline && !failed.isPlaying && failed.offlineReason?.contains(missing) == true,
                "\(String(describing: failed.offlineReason))")
    }

    @Test func aLiveSourceThatCannotBeOpenedIsRetried() throws {
        let attempts = Mutex(0)
        let player = Player(source: try Self.scaledClip())
        player.start()
        defer { player.stop() }
        player.switchSource(opening: { () throws(MediaError) in
            guard attempts.withLock({ $0 += 1; return $0 }) > 1 else { throw .openFailed(input: "camera", reason: "not there yet") }
            return try Self.openPattern()
        }, info: try Self.openPattern().info, interruption: Interruption())
        let offline = Self.eventually(player) { !$0.isOnline }
        #expect(!offline.isOnline && offline.retryAt != nil && offline.offlineReason?.contains("not there yet") == true)
        // The first retry comes after a second; its first frame brings the source back.
        let back = Self.eventually(player) { $0.isOnline }
        #expect(back.isOnline && back.isPlaying && attempts.withLock { $0 } == 2)
    }
}
