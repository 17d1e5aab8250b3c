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

    /// A picture of `brightness` in JPEG rendition `rendition` (default: full size), as the
    /// processing loop hands over a frame of `kind`.
    func publish(_ brightness: UInt8, _ kind: FrameContext.Kind, on channel: Channel, rendition: Int = 0) {
        let frame = Frame(width: 64, height: 48)
        frame.y.fill(brightness)
        frame.u.fill(128)  // grey: a new frame's chroma is whatever its memory held
        frame.v.fill(128)
        channel.outputs.jpeg[rendition]!.take(frame, FrameContext(kind: kind, isFiltered: kind != .placeholder, filterGeneration: 0))
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
        #expect(full.keptPicture()?.jpeg == real && full.broadcaster.latestJPEG() != real, "a placeholder is no real picture")

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

    /// A thumbnail's snapshot (`?width=`) waits on its rendition, not the full-size one, and an
    /// idle channel answers with that rendition's last picture.
    @Test func aSnapshotOfASmallerRenditionTakesThatRenditionsPicture() throws {
        let fixture = try CoreFixture(idleClose: Self.idleClose)
        let core = fixture.core, main = fixture.main, player = fixture.session.player
        let full = main.outputs.fullJPEG, half = main.outputs.jpeg[1]!
        player.start()
        defer { player.stop() }
        #expect(core.snapshotAsked(1, of: main, rendition: 1) == .wait)
        let demand = half.demand(now: .now)
        #expect(demand.isActive && demand.onlySnapshots && !full.demand(now: .now).isActive, "only the small one is encoded")
        publish(200, .new, on: main)
        publish(200, .new, on: main, rendition: 1)
        let small = try #require(core.snapshotPicture(of: main, rendition: 1))
        #expect(small == half.broadcaster.latestJPEG() && small.count < full.broadcaster.latestJPEG()!.count)
        core.watcherLeft(1)

        player.setConsumersPresent(true, holdingLiveInput: false)
        #expect(player.waitForState(timeout: .seconds(3)) { $0.isIdle } != nil)
        #expect(core.snapshotAsked(2, of: main, rendition: 1) == .now(small), "idle: the small rendition's last picture")
    }

    @Test func anIdleChannelsSmallPictureIsTakenOnlyWhenRecent() {
        let now = ContinuousClock.now, lag = ServerCore.keptPictureLag
        let full = KeptPicture(jpeg: [1], madeAt: now), recent = KeptPicture(jpeg: [2], madeAt: now - lag)
        let old = KeptPicture(jpeg: [3], madeAt: now - lag - .milliseconds(1))
        #expect(ServerCore.idlePicture(kept: recent, full: full) == [2])
        #expect(ServerCore.idlePicture(kept: old, full: full) == [1], "older: maybe another source's")
        #expect(ServerCore.idlePicture(kept: nil, full: full) == [1])
        #expect(ServerCore.idlePicture(kept: old, full: nil) == [3])
        #expect(ServerCore.idlePicture(kept: nil, full: nil) == nil)
    }
}
