@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import MediaKit
import Testing

/// The one resolver behind `open`, `delete` and recording downloads, on real folders with real
/// symlinks: what may be named, what is forbidden, what is missing.
@Suite struct MediaLibraryTests {
    /// base/recordings (a.mp4, .hidden.mp4, leak.mp4 → base/outside.mp4, sub/), base/media
    /// (clip.mp4, deep/b.mp4, escape → base), base/outside.mp4.
    static func library(media: Bool = true) throws -> (MediaLibrary, URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString)")
        let recordings = base.appendingPathComponent("recordings"), mediaFolder = base.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: recordings.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mediaFolder.appendingPathComponent("deep"), withIntermediateDirectories: true)
        for file in ["recordings/a.mp4", "recordings/.hidden.mp4", "recordings/sub/x.mp4", "media/clip.mp4",
                     "media/deep/b.mp4", "outside.mp4"] {
            try Data("x".utf8).write(to: base.appendingPathComponent(file))
        }
        try FileManager.default.createSymbolicLink(at: recordings.appendingPathComponent("leak.mp4"),
                                                   withDestinationURL: base.appendingPathComponent("outside.mp4"))
        try FileManager.default.createSymbolicLink(at: mediaFolder.appendingPathComponent("escape"), withDestinationURL: base)
        let library = try MediaLibrary(recordingsPath: recordings.path, mediaPath: media ? mediaFolder.path : nil)
        return (library, base)
    }

    static func code(_ library: MediaLibrary, _ reference: String) -> ErrorCode? {
        do {
            _ = try library.resolve(reference)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func resolvesFilesInsideTheFolders() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        let recording = try library.resolve("recordings/a.mp4")
        #expect(recording.area == .recordings && recording.path.hasSuffix("/recordings/a.mp4"))
        #expect(try library.resolve("media/deep/b.mp4").area == .media)
        #expect(try library.resolve("media//clip.mp4").path.hasSuffix("/media/clip.mp4"))
    }

    @Test(arguments: [
        "/etc/passwd", "../outside.mp4", "recordings/../outside.mp4", "recordings/..", "recordings/./a.mp4",
        "media/../recordings/a.mp4", "media/escape/outside.mp4", "recordings/leak.mp4", "recordings/.hidden.mp4",
        "recordings/sub/x.mp4", "http://127.0.0.1/a.mp4", "file:///etc/passwd", "pipe:0", "concat:a|b", "~root/x",
        "a.mp4", "recordings", "recordings/", "other/a.mp4", "recordings\\..\\x", "recordings/a\0.mp4", "",
    ])
    func forbids(_ reference: String) throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(Self.code(library, reference) == .forbidden, "\(reference)")
        #expect(throws: ProtocolError.self) { try library.delete(reference) }
    }

    @Test func missingFilesAreNotFound() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(Self.code(library, "recordings/none.mp4") == .notFound)
        #expect(Self.code(library, "media/deep") == .notFound, "a folder is not a file")
        #expect(Self.code(library, "media/none/x.mp4") == .notFound)
    }

    @Test func withoutAMediaFolderMediaIsForbidden() throws {
        let (library, base) = try Self.library(media: false)
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(Self.code(library, "media/clip.mp4") == .forbidden)
    }

    @Test func deletesRecordingsButNotMedia() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        try library.delete("recordings/a.mp4")
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent("recordings/a.mp4").path))
        do {
            try library.delete("media/clip.mp4")
            Issue.record("deleted a media file")
        } catch {
            #expect(error.code == .forbidden && error.id == nil && error.message.contains("read-only"))
        }
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("media/clip.mp4").path))
        #expect(FileManager.default.fileExists(atPath: base.appendingPathComponent("outside.mp4").path))
    }

    @Test func listsRegularRecordingsOnly() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        try Data("y".utf8).write(to: base.appendingPathComponent("recordings/b.mp4"))
        let entries = library.listRecordings()
        #expect(Set(entries.map(\.name)) == ["a.mp4", "b.mp4"], "no hidden files, symlinks or folders")
        #expect(entries.allSatisfy { $0.size == 1 && $0.duration == nil && $0.created.hasSuffix("Z") })
    }

    @Test func readsAFewDurationsPerListing() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        // One real recording (10 frames), copied under more names than one listing probes.
        let recorder = Recorder(width: 64, height: 48, frameRate: 30,
                                options: RecorderOptions(directory: base.appendingPathComponent("made").path))
        let source = try InputSpec.testPattern(width: 64, height: 48, rate: 30).open()
        let frame = Frame(width: 64, height: 48)
        let status = try recorder.start(filtered: true)
        for _ in 0..<10 {
            _ = try source.read(into: frame)
            recorder.record(frame, filtered: true)
            usleep(33_000)
        }
        recorder.stop()
        let made = base.appendingPathComponent("made/" + (status.name ?? ""))
        let copies = MediaLibrary.probesPerListing + 3
        for index in 0..<copies {
            try FileManager.default.copyItem(at: made, to: base.appendingPathComponent("recordings/r\(index).mp4"))
        }
        let first = library.listRecordings().filter { $0.name.hasPrefix("r") }
        #expect(first.count == copies)
        #expect(first.filter { $0.duration != nil }.count == MediaLibrary.probesPerListing)
        let second = library.listRecordings().filter { $0.name.hasPrefix("r") }
        #expect(second.allSatisfy { ($0.duration ?? 0) > 0.2 }, "the rest are read by the next listing")
    }

}
