import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// A file that changes under a playing source: `verifyUnchanged` names how, and the Player gives
/// it up (offline with the reason, not playing) until another source is switched to.
@Suite struct ChangedFileTests {
    /// A fresh copy of a 1 s clip that the test may delete, replace or truncate.
    static func copy(_ name: String) throws -> String {
        let clip = try TestClips.clip("changed-160x120.mp4", TestClips.lavfi(width: 160, height: 120, rate: 20, duration: 1)
            + ["-c:v", "libx264", "-g", "8", "-pix_fmt", "yuv420p"])
        let path = TestClips.path(name)
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: clip, toPath: path)
        return path
    }

    static func open(_ path: String) throws -> any SeekableVideoSource {
        try #require(try InputSpec.file(path).open() as? any SeekableVideoSource)
    }

    @Test func anUnchangedFilePasses() throws {
        try Self.open(try Self.copy("unchanged.mp4")).verifyUnchanged()
    }

    @Test(arguments: ["deleted", "replaced", "truncated"])
    func aChangedFileIsNamedWithHow(_ change: String) throws {
        let path = try Self.copy("changed-\(change).mp4")
        let source = try Self.open(path)
        switch change {
        case "deleted": try FileManager.default.removeItem(atPath: path)
        case "replaced":
            let other = try Self.copy("other-\(change).mp4")
            #expect(rename(other, path) == 0)
        default: #expect(truncate(path, 100) == 0)
        }
        let reason = change == "deleted" ? "the file was deleted" : "the file was replaced or changed while playing"
        #expect(throws: MediaError.readFailed(input: path, reason: reason)) { try source.verifyUnchanged() }
    }

    @Test func thePlayerGivesUpADeletedFileUntilASwitch() throws {
        let path = try Self.copy("player-deleted.mp4")
        let player = Player(source: try Self.open(path))
        player.start()
        defer { player.stop() }
        try FileManager.default.removeItem(atPath: path)
        // The 1 s clip ends and would loop: the check there finds the file gone.
        let deadline = ContinuousClock.now + .seconds(10)
        while player.playbackState.isOnline, ContinuousClock.now < deadline {
            player.output.take(timeout: .milliseconds(100)).map { player.pool.recycle($0) }
        }
        let failed = player.playbackState
        #expect(!failed.isOnline && !failed.isPlaying)
        #expect(failed.offlineReason == "error reading \(path): the file was deleted" && failed.error == failed.offlineReason)

        try player.switchSource(to: try Self.open(try Self.copy("player-next.mp4")))
        let recovered = player.playbackState
        #expect(recovered.isOnline && recovered.isPlaying && recovered.error == nil && recovered.offlineReason == nil)
        let frame = try #require(player.output.take(timeout: .seconds(5)))
        player.pool.recycle(frame)
    }
}
