@testable import CastServer
import Foundation
import MediaKit
import Testing

/// The seek bar's thumbnails of files (``SeekThumbnails``): made once per version of a file by
/// the worker, kept on disk across restarts, made again when the file changes, bounded.
@Suite struct SeekThumbnailsTests {
    /// A folder of its own for the thumbnails and the clips.
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("thumbnails-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `seconds` of testsrc2 at 320x240, 25 fps, as `folder/name`.
    static func clip(_ name: String, seconds: Int, in folder: String) throws -> String {
        let path = folder + "/" + name
        try SessionSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=25:duration=\(seconds)", "-c:v", "libx264",
                                       "-preset", "ultrafast", "-pix_fmt", "yuv420p", path])
        return path
    }

    /// The answer for `path` once it is not `.making` (asked every 20 ms for at most 60 s).
    static func settled(_ thumbnails: SeekThumbnails, _ path: String) -> SeekThumbnails.Answer {
        let deadline = ContinuousClock.now + .seconds(60)
        var answer = thumbnails.answer(for: path)
        while answer == .making, .now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            answer = thumbnails.answer(for: path)
        }
        return answer
    }

    static func index(_ answer: SeekThumbnails.Answer) throws -> (key: String, index: ThumbnailIndex) {
        guard case .ready(let key, let index) = answer else { throw TestFailure("not ready: \(answer)") }
        return (key, index)
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    @Test func beingMadeThenReadyWithItsSprite() throws {
        let folder = try Self.folder()
        let clip = try Self.clip("clip.mp4", seconds: 5, in: folder)
        let thumbnails = SeekThumbnails(folder: folder + "/thumbnails")
        defer { thumbnails.stop() }
        #expect(thumbnails.answer(for: clip) == .making)
        let (key, index) = try Self.index(Self.settled(thumbnails, clip))
        #expect(key == SeekThumbnails.key(of: clip) && index.layout.times == [0, 1.666, 3.333])
        #expect(index.fingerprint == FileIdentity(path: clip)?.fingerprint)
        let sprite = try #require(thumbnails.sprite(named: "\(key)-\(index.fingerprint).jpg", of: clip))
        let bytes = try #require(FileManager.default.contents(atPath: sprite))
        #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(thumbnails.sprite(named: "\(key)-0000000000000000.jpg", of: clip) == nil)
        #expect(thumbnails.sprite(named: "../\(key).jpg", of: clip) == nil)
    }

    @Test func keptOnDiskAcrossRestartsAndMadeAgainWhenTheFileChanges() throws {
        let folder = try Self.folder()
        let clip = try Self.clip("clip.mp4", seconds: 3, in: folder)
        let first = SeekThumbnails(folder: folder + "/thumbnails")
        let (key, made) = try Self.index(Self.settled(first, clip))
        first.stop()
        let sprite = folder + "/thumbnails/" + key + ".jpg"
        let madeAt = try FileManager.default.attributesOfItem(atPath: sprite)[.modificationDate] as? Date

        let second = SeekThumbnails(folder: folder + "/thumbnails")
        defer { second.stop() }
        #expect(try Self.index(Self.settled(second, clip)).index == made)
        #expect(try FileManager.default.attributesOfItem(atPath: sprite)[.modificationDate] as? Date == madeAt, "taken from disk, not made again")

        let other = try Self.clip("other.mp4", seconds: 7, in: folder)
        #expect(rename(other, clip) == 0)
        let remade = try Self.index(Self.settled(second, clip)).index
        #expect(remade.fingerprint != made.fingerprint && remade.layout.times.count == 4)
    }

    @Test func noThumbnailsOfWhatIsNoFileHere() {
        let thumbnails = SeekThumbnails(folder: NSTemporaryDirectory() + "unused-\(UUID().uuidString)")
        #expect(thumbnails.answer(for: "/no/such/file.mp4") == .notAFile)
        #expect(thumbnails.answer(for: "http://127.0.0.1:1/file.mp4") == .notAFile)
        #expect(thumbnails.answer(for: "/etc/hostname") != .notAFile)  // a file: its failure is the worker's to tell
        if case .failed(let reason) = Self.settled(thumbnails, "/etc/hostname") {
            #expect(!reason.contains("/etc/hostname"), "clients are not told the server's paths: \(reason)")
        } else {
            Issue.record("a file that is no video is not ready")
        }
        thumbnails.stop()
    }

    /// At most ``SeekThumbnails/queueLimit`` files wait (the one being made included); beyond,
    /// busy — and a stop interrupts the one being made at once.
    @Test func theQueueIsBoundedAndAStopInterrupts() throws {
        let folder = try Self.folder()
        let clip = try Self.clip("clip.mp4", seconds: 20, in: folder)
        let copies = try (0..<6).map { index in
            let copy = folder + "/copy-\(index).mp4"
            try FileManager.default.copyItem(atPath: clip, toPath: copy)
            return copy
        }
        let thumbnails = SeekThumbnails(folder: folder + "/thumbnails")
        let answers = copies.map { thumbnails.answer(for: $0) }
        #expect(answers == Array(repeating: .making, count: SeekThumbnails.queueLimit) + [.busy, .busy])
        #expect(thumbnails.answer(for: copies[0]) == .making, "asked again, not queued twice")
        let started = ContinuousClock.now
        thumbnails.stop()
        #expect(started.duration(to: .now) < .seconds(1))
        #expect(thumbnails.answer(for: copies[5]) == .busy, "nothing is queued once stopped")
    }
}
