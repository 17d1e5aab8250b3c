@testable import CastServer
@testable import MediaKit
import Testing

/// The periodic `state` rules, on instants the test chooses.
@Suite struct StateBroadcastScheduleTests {
    let start = ContinuousClock.now

    func playback(playing: Bool = true, position: Double = 0, online: Bool = true) -> PlaybackState {
        var playback = PlaybackState(isLive: false, speed: 1)
        playback.isPlaying = playing
        playback.position = position
        playback.isOnline = online
        return playback
    }

    @Test func whilePlayingAStateGoesOutTwiceASecond() {
        var schedule = StateBroadcastSchedule(now: start)
        schedule.broadcast(playback(position: 1), at: start)
        #expect(!schedule.isDue(playback(position: 1.4), recording: false, now: start + .milliseconds(400)))
        #expect(schedule.isDue(playback(position: 1.5), recording: false, now: start + .milliseconds(500)))
    }

    @Test func whilePausedOnlyAMovedPositionIsBroadcast() {
        var schedule = StateBroadcastSchedule(now: start)
        schedule.broadcast(playback(playing: false, position: 3), at: start)
        #expect(!schedule.isDue(playback(playing: false, position: 3), recording: false, now: start + .seconds(5)))
        #expect(schedule.isDue(playback(playing: false, position: 7), recording: false, now: start + .milliseconds(1)),
                "a seek that took effect after the command's own state")
    }

    @Test func aRecordingMovesEvenWhilePaused() {
        var schedule = StateBroadcastSchedule(now: start)
        schedule.broadcast(playback(playing: false), at: start)
        #expect(!schedule.isDue(playback(playing: false), recording: true, now: start + .milliseconds(100)))
        #expect(schedule.isDue(playback(playing: false), recording: true, now: start + .milliseconds(500)))
    }

    @Test func goingOfflineAndBackIsAnnouncedAtOnce() {
        var schedule = StateBroadcastSchedule(now: start)
        schedule.broadcast(playback(), at: start)
        let offline = playback(online: false)
        #expect(schedule.isDue(offline, recording: false, now: start + .milliseconds(1)))
        schedule.broadcast(offline, at: start + .milliseconds(1))
        #expect(!schedule.isDue(offline, recording: false, now: start + .milliseconds(2)))
        #expect(schedule.isDue(playback(), recording: false, now: start + .milliseconds(3)))
    }

    @Test func playbackStoppingByItselfIsAnnouncedAtOnce() {
        var schedule = StateBroadcastSchedule(now: start)
        schedule.broadcast(playback(position: 0.04), at: start)
        #expect(schedule.isDue(playback(playing: false, position: 0.04), recording: false, now: start + .milliseconds(1)),
                "reverse stopped at the first frame, the position unchanged since the last state")
    }
}
