import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// A file that turns out corrupt mid-way is skipped past, not fatal: here 60 % of a 60 s clip is
/// zeroed (about 900 packets in a row, more than the 500 that end a live input).
@Suite struct CorruptFileTests {
    static func zeroedClip() throws -> String {
        let whole = try TestClips.clip("long-64x48.mp4", TestClips.lavfi(width: 64, height: 48, rate: 25, duration: 60)
            + ["-c:v", "libx264", "-g", "25", "-bf", "0", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let start = bytes.count / 5, end = bytes.count * 4 / 5
        for index in start..<end { bytes[index] = 0 }
        let path = TestClips.path("long-64x48-zeroed.mp4")
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aLongCorruptStretchOfAFileIsSkippedAndPlaybackReachesTheEnd() throws {
        let path = try Self.zeroedClip()
        let source = try InputSpec.file(path).open()
        let warnings = WarningLog()
        source.onWarning = { warnings.append($0) }
        let player = Player(source: source, options: PlaybackOptions(speed: 16, loops: false))
        player.start()
        defer { player.stop() }
        var times: [Double] = []
        let deadline = ContinuousClock.now + .seconds(40)
        while !player.playbackState.hasEnded && ContinuousClock.now < deadline {
            if let frame = player.output.take(timeout: .milliseconds(100)) {
                times.append(frame.time)
                player.pool.recycle(frame)
            }
        }
        let state = player.playbackState
        #expect(state.hasEnded, "playback did not reach the end: \(state)")
        #expect(state.error == nil, "\(state.error ?? "")")
        #expect(times.contains { $0 < 10 } && times.contains { $0 > 50 }, "frames before and after the damage")
        #expect(!warnings.lines.isEmpty && warnings.lines.allSatisfy { $0.contains(path) })
    }

    final class WarningLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        func append(_ line: String) { lock.withLock { stored.append(line) } }
        var lines: [String] { lock.withLock { stored } }
    }
}
