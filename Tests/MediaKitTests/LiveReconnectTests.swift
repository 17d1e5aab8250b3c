import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// A live network stream (fed by the ffmpeg CLI) that stops takes the player offline with a
/// reason, and the player reconnects by itself when the stream comes back.
@Suite(.serialized) struct LiveReconnectTests {
    /// Opens `url` once ffmpeg is ready to serve it (a TCP listener takes a moment to appear).
    static func open(_ url: String, _ options: SourceOptions) throws -> any VideoSource {
        let deadline = ContinuousClock.now + .seconds(15)
        while true {
            do {
                return try InputSpec.file(url).open(options)
            } catch {
                if ContinuousClock.now > deadline { throw error }
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Takes frames for `seconds`, recycling them; returns how many came.
    static func drain(_ player: Player, for seconds: Double) -> Int {
        var count = 0
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            if let frame = player.output.take(timeout: .milliseconds(100)) {
                count += 1
                player.pool.recycle(frame)
            }
        }
        return count
    }

    /// Polls the player's state until `condition` holds; returns it, or nil after `seconds`.
    static func wait(_ player: Player, seconds: Double, until condition: (PlaybackState) -> Bool) -> PlaybackState? {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            let state = player.playbackState
            if condition(state) { return state }
            _ = drain(player, for: 0.05)
        }
        return nil
    }

    func stopAndRestart(_ feed: LiveFeed, stallTimeout: Duration, expectedReason: String) throws {
        try feed.start()
        var options = SourceOptions()
        options.stallTimeout = stallTimeout
        // The player must hold the only reference: the failed source is closed before reopening.
        let player = Player(source: try Self.open(feed.url, options),
                            reopen: InputSpec.file(feed.url).reopener(options, width: 160, height: 120))
        #expect(player.info.isLive)
        player.start()
        defer { player.stop() }
        #expect(Self.drain(player, for: 1.5) > 10)
        #expect(player.playbackState.isOnline)

        feed.stop()
        let offline = try #require(Self.wait(player, seconds: 15) { !$0.isOnline })
        let reason = try #require(offline.offlineReason)
        #expect(reason.contains(expectedReason) && reason.contains(feed.url), "reason: \(reason)")
        #expect(offline.error == nil && offline.isPlaying, "a live failure does not stop playback")
        // While it is down, attempts are scheduled (connection refused, or silence on UDP).
        #expect(Self.wait(player, seconds: 4) { $0.retryAt != nil } != nil)
        #expect(Self.drain(player, for: 1) == 0)

        try feed.start()
        let online = try #require(Self.wait(player, seconds: 25) { $0.isOnline },
                                  "no recovery after the feed restarted: \(player.playbackState.offlineReason ?? "")")
        #expect(online.offlineReason == nil && online.retryAt == nil)
        #expect(Self.drain(player, for: 1.5) > 10, "frames resume")
    }

    @Test func aTCPStreamThatEndsGoesOfflineAndRecoversWhenItComesBack() throws {
        try stopAndRestart(LiveFeed(.tcp), stallTimeout: .seconds(5), expectedReason: "the live stream ended")
    }

    @Test func aUDPStreamThatFallsSilentFailsAfterTheStallTimeoutAndRecovers() throws {
        try stopAndRestart(LiveFeed(.udp), stallTimeout: .seconds(2), expectedReason: "no frame for 2 s")
    }

    @Test func stoppingThePlayerWhileOfflineIsPrompt() throws {
        let feed = LiveFeed(.tcp)
        try feed.start()
        let options = SourceOptions()
        let source = try Self.open(feed.url, options)
        let player = Player(source: source, reopen: InputSpec.file(feed.url).reopener(options, width: 160, height: 120))
        player.start()
        _ = Self.drain(player, for: 0.5)
        feed.stop()
        #expect(Self.wait(player, seconds: 15) { !$0.isOnline } != nil)
        let started = ContinuousClock.now
        player.stop()
        #expect(started.duration(to: .now) < .seconds(1))
    }
}
