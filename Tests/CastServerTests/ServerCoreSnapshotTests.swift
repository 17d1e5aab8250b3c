@testable import CastServer
import FilterKit
@testable import MediaKit
import Testing

/// Snapshots of a live channel that closes on demand (`--idle-close`), driven as lws would: a
/// snapshot takes the frames of the open input but keeps none open, and a snapshot of an idle
/// channel is answered at once with the last real picture (503 before any), opening nothing.
/// The real test pattern (lavfi) as the live input, a short idle time; no socket.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ServerCoreSnapshotTests {
    static let idleClose = Duration.milliseconds(300)

    /// A picture of `brightness` in the full-size JPEG rendition, as the processing loop hands
    /// over a frame of `kind`.
    func publish(_ brightness: UInt8, _ kind: FrameContext.Kind, on channel: Channel) {
        let frame = Frame(width: 64, height: 48)
        frame.y.fill(brightness)
        channel.outputs.fullJPEG.take(frame, FrameContext(kind: kind, isFiltered: kind != .placeholder, filterGeneration: 0))
    }

    @Test func anIdleChannelAnswersWithItsLastRealPictureAndStaysClosed() throws {
        let fixture = try CoreFixture(idleClose: Self.idleClose)
        let core = fixture.core, main = fixture.main, player = fixture.session.player, full = main.outputs.fullJPEG
        player.start()
        defer { player.stop() }
        #expect(core.snapshotAsked(1, of: main) == .wait, "an open input: the snapshot waits for the next picture")
        let demand = full.demand(now: .now)
        #expect(demand.isActive && demand.onlySnapshots, "its picture is encoded, but it holds no live input: \(demand)")
        publish(200, .new, on: main)
        let real = try #require(core.snapshotPicture(of: main))
        core.watcherLeft(1)
        publish(20, .placeholder, on: main)
        #expect(full.lastPictureJPEG() == real && full.broadcaster.latestJPEG() != real, "a placeholder is no real picture")

        // Snapshots alone, as the processing loop tells the player: the input closes all the same.
        let left = ContinuousClock.now
        player.setConsumersPresent(true, holdingLiveInput: false)
        #expect(player.waitForState(timeout: .seconds(3)) { $0.isIdle } != nil, "snapshots kept the input open")
        #expect(left.duration(to: .now) < Self.idleClose + .seconds(1), "closed after \(left.duration(to: .now))")
        #expect(core.snapshotAsked(2, of: main) == .now(real), "idle: the last real picture at once")
        #expect(core.watchers[2] == nil && full.audience.load(ordering: .relaxed) == 0, "an idle channel's snapshot is no audience")
        #expect(player.waitForState(timeout: .milliseconds(600)) { !$0.isIdle } == nil, "a snapshot opened the input")

        player.setConsumersPresent(true)
        #expect(player.waitForState(timeout: .seconds(5)) { $0.isOnline } != nil, "a viewer opens it again")
    }

    @Test func anIdleChannelWithoutAPictureSays503() throws {
        let fixture = try CoreFixture(idleClose: Self.idleClose)
        let player = fixture.session.player
        player.start()
        defer { player.stop() }
        player.setConsumersPresent(false)
        #expect(player.waitForState(timeout: .seconds(3)) { $0.isIdle } != nil)
        guard case .unavailable(let reason) = fixture.core.snapshotAsked(1, of: fixture.main) else {
            Issue.record("an idle channel without a picture must answer 503")
            return
        }
        #expect(reason == "channel main is idle (its live input opens when somebody watches) and has no picture yet")
        #expect(fixture.core.watchers[1] == nil)
    }
}
