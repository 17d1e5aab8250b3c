import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// On demand (`--idle-close`): a live input nothing takes frames from is closed after the idle
/// time and opened again when consumers come back. The timer alone with instants the test moves;
/// the player with the real test pattern (lavfi) and a short idle time.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct PlayerOnDemandTests {
    @Test func theTimerRunsFromTheLastDepartureAndStopsWhenConsumersReturn() {
        let start = ContinuousClock.now
        var timer = IdleClose(after: .seconds(10))
        #expect(timer.deadline == nil && !timer.isDue(at: start + .seconds(3600)), "consumers are assumed present at first")
        timer.consumers(present: false, at: start)
        timer.consumers(present: false, at: start + .seconds(4))  // still gone: the departure keeps its time
        #expect(timer.deadline == start + .seconds(10))
        #expect(!timer.isDue(at: start + .milliseconds(9999)))
        #expect(timer.isDue(at: start + .seconds(10)))
        timer.consumers(present: true, at: start + .seconds(11))
        #expect(timer.deadline == nil && !timer.isDue(at: start + .seconds(30)))
        timer.consumers(present: false, at: start + .seconds(12))
        #expect(!timer.isDue(at: start + .seconds(21)) && timer.isDue(at: start + .seconds(22)), "a new departure starts it again")
    }

    /// A started live player (the test pattern, 30 fps) that closes after `idleClose`.
    static func livePlayer(idleClose: Duration?) throws -> Player {
        let input = InputSpec.testPattern(width: 64, height: 48, rate: 30)
        let player = Player(source: try input.open(), options: PlaybackOptions(idleClose: idleClose),
                            reopen: input.reopener(SourceOptions(), width: 64, height: 48))
        player.start()
        return player
    }

    @Test func aLiveInputNobodyWatchesClosesAndOpensForTheNextConsumer() throws {
        let player = try Self.livePlayer(idleClose: .milliseconds(300))
        defer { player.stop() }
        #expect(PlayerTests.take(3, from: player).count == 3)
        let left = ContinuousClock.now
        player.setConsumersPresent(false)
        let idle = try #require(player.waitForState(timeout: .seconds(5), idle: true) { $0.isIdle }, "it never closed")
        let closedAfter = left.duration(to: .now)
        #expect(closedAfter >= .milliseconds(300) && closedAfter < .seconds(2), "closed after \(closedAfter)")
        #expect(!idle.isOnline && idle.offlineReason == PlaybackState.idleReason && idle.retryAt == nil && idle.error == nil)
        PlayerIdleTests.drain(player)
        let decoded = player.framesDecoded.value
        #expect(player.output.take(timeout: .milliseconds(500)) == nil, "a closed input gives no frame")
        #expect(player.framesDecoded.value == decoded)

        let asked = ContinuousClock.now
        player.setConsumersPresent(true)
        let frame = try #require(player.output.take(timeout: .seconds(5)), "no frame after the consumers came back")
        #expect(asked.duration(to: .now) < .seconds(2), "the first frame took \(asked.duration(to: .now))")
        player.pool.recycle(frame)
        let state = player.playbackState
        #expect(state.isOnline && !state.isIdle && state.offlineReason == nil, "\(state)")
        #expect(PlayerTests.take(3, from: player).count == 3, "it plays on")
    }

    @Test func consumersThatHoldNoLiveInputTakeFramesButNeitherKeepItOpenNorOpenIt() throws {
        let player = try Self.livePlayer(idleClose: .milliseconds(300))
        defer { player.stop() }
        let left = ContinuousClock.now
        player.setConsumersPresent(true, holdingLiveInput: false)
        #expect(PlayerTests.take(3, from: player).count == 3, "an open input gives them its frames")
        #expect(player.waitForState(timeout: .seconds(3)) { $0.isIdle } != nil, "they kept the input open")
        #expect(left.duration(to: .now) < .milliseconds(1300), "closed after \(left.duration(to: .now))")
        PlayerIdleTests.drain(player)
        player.setConsumersPresent(false)
        player.setConsumersPresent(true, holdingLiveInput: false)
        #expect(player.waitForState(timeout: .milliseconds(600)) { !$0.isIdle } == nil, "they opened it")
        player.setConsumersPresent(true)
        #expect(player.waitForState(timeout: .seconds(5)) { $0.isOnline } != nil, "a consumer that holds it opens it")
    }

    @Test func consumersBackInTimeKeepItOpen() throws {
        let player = try Self.livePlayer(idleClose: .milliseconds(400))
        defer { player.stop() }
        player.setConsumersPresent(false)
        #expect(PlayerTests.take(3, from: player).count == 3, "read while the timer runs")
        player.setConsumersPresent(true)
        #expect(player.waitForState(timeout: .milliseconds(800)) { $0.isIdle } == nil, "closed though consumers came back")
    }

    @Test func aPausedLiveInputClosesAtTheDeadlineToo() throws {
        let player = try Self.livePlayer(idleClose: .milliseconds(300))
        defer { player.stop() }
        #expect(PlayerTests.take(1, from: player).count == 1)
        player.pause()
        player.setConsumersPresent(false)
        #expect(player.waitForState(timeout: .seconds(3)) { $0.isIdle } != nil, "a paused input nobody watches stayed open")
    }

    @Test func withoutAnIdleTimeALiveInputStaysOpen() throws {
        let player = try Self.livePlayer(idleClose: nil)
        defer { player.stop() }
        player.setConsumersPresent(false)
        #expect(player.waitForState(timeout: .milliseconds(600)) { $0.isIdle } == nil)
        #expect(PlayerTests.take(3, from: player).count == 3, "--always-on: read on")
    }

    @Test func aFileIsNeverClosedItCoasts() throws {
        let source = try InputSpec.file(try PlayerTests.clip()).open()
        let player = Player(source: source, options: PlaybackOptions(idleClose: .milliseconds(100)))
        player.start()
        defer { player.stop() }
        _ = PlayerTests.take(1, from: player)
        player.setConsumersPresent(false)
        #expect(player.waitForState(timeout: .milliseconds(500)) { $0.isIdle } == nil)
        #expect(player.setConsumersPresent(true), "it coasted, and catches up")
    }
}
