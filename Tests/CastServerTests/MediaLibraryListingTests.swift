@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// `GET /api/media`'s listing of one folder of `--media-dir`, on real folders with real symlinks
/// and real clips: what is listed and in what order, what is left out, the bounds, and the
/// folders that may not be listed.
@Suite struct MediaLibraryListingTests {
    /// base/media: files b.mp4 (3 bytes), A.mkv, noext, notes.txt, poster.JPG, subs.srt,
    /// .hidden.mp4, a fifo; folders Sub/, alpha/ (x.mp4), .secret/; symlinks inside.mp4 → b.mp4,
    /// in-dir → alpha, out.mp4 → base/outside.mp4, out-dir → base, dangling → nothing.
    static func library(media: Bool = true) throws -> (MediaLibrary, URL) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("listing-\(UUID().uuidString)")
        let folder = base.appendingPathComponent("media")
        for sub in ["Sub", "alpha", ".secret"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for file in ["b.mp4", "A.mkv", "noext", "notes.txt", "poster.JPG", "subs.srt", ".hidden.mp4", "alpha/x.mp4",
                     ".secret/y.mp4"] {
            try Data((file == "b.mp4" ? "abc" : "x").utf8).write(to: folder.appendingPathComponent(file))
        }
        try Data("x".utf8).write(to: base.appendingPathComponent("outside.mp4"))
        #expect(mkfifo(folder.appendingPathComponent("pipe.mp4").path, 0o600) == 0)
        let links = ["inside.mp4": folder.appendingPathComponent("b.mp4"), "in-dir": folder.appendingPathComponent("alpha"),
                     "out.mp4": base.appendingPathComponent("outside.mp4"), "out-dir": base,
                     "dangling.mp4": base.appendingPathComponent("none.mp4")]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: target)
        }
        let library = try MediaLibrary(recordingsPath: base.appendingPathComponent("recordings").path,
                                       mediaPath: media ? folder.path : nil)
        return (library, base)
    }

    static func refusal(_ library: MediaLibrary, _ folder: String) -> ProtocolError? {
        do {
            _ = try library.listMedia(folder: folder)
            return nil
        } catch {
            return error
        }
    }

    @Test func listsFoldersFirstThenFilesByNameLeavingOutWhatCannotBeOpened() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        let listing = try library.listMedia(folder: "")
        #expect(listing.folder == "" && !listing.truncated)
        #expect(listing.entries.map(\.name) == ["alpha", "in-dir", "Sub", "A.mkv", "b.mp4", "inside.mp4", "noext"])
        #expect(listing.entries.prefix(3).allSatisfy { $0.kind == .folder && $0.size == nil && $0.duration == nil })
        #expect(listing.entries.suffix(4).allSatisfy { $0.kind == .file })
        let link = try #require(listing.entries.first { $0.name == "inside.mp4" })
        #expect(link.size == 3, "a symlink inside is the file it leads to")
    }

    @Test func listsSubfoldersByTheirPathAndThroughSymlinksInside() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        for folder in ["alpha", "alpha/", "in-dir"] {
            let listing = try library.listMedia(folder: folder)
            #expect(listing.entries.map(\.name) == ["x.mp4"], "\(folder)")
        }
        #expect(try library.listMedia(folder: "alpha//").folder == "alpha")
        #expect(try library.listMedia(folder: "Sub").entries.isEmpty)
    }

    @Test(arguments: ["..", "../media", "alpha/../..", "/etc", "/", "~root", ".secret", "alpha/.x", "out-dir",
                      "a\\b", "alpha/./x"])
    func forbids(_ folder: String) throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        let refusal = try #require(Self.refusal(library, folder), "\(folder)")
        #expect(refusal.code == .forbidden && refusal.id == nil, "\(folder): \(refusal.message)")
    }

    @Test func missingFoldersAndFilesAreNotFound() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(Self.refusal(library, "none")?.code == .notFound)
        let file = try #require(Self.refusal(library, "b.mp4"))
        #expect(file.code == .notFound && file.message == "'b.mp4': not a folder")
        #expect(Self.refusal(library, "dangling.mp4")?.code == .notFound)
    }

    @Test func withoutAMediaFolderNothingIsListed() throws {
        let (library, base) = try Self.library(media: false)
        defer { try? FileManager.default.removeItem(at: base) }
        let refusal = try #require(Self.refusal(library, ""))
        #expect(refusal.code == .notFound && refusal.message.contains("--media-dir"))
    }

    @Test func listsAtMostTheListingLimitInOrder() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        let many = base.appendingPathComponent("media/many")
        try FileManager.default.createDirectory(at: many, withIntermediateDirectories: true)
        let count = MediaLibrary.listingLimit + 5
        // Created in reverse: the order is the listing's, not the file system's.
        for index in (0..<count).reversed() {
            try Data().write(to: many.appendingPathComponent(String(format: "clip-%05d.mp4", index)))
        }
        let listing = try library.listMedia(folder: "many")
        #expect(listing.truncated && listing.entries.count == MediaLibrary.listingLimit)
        #expect(listing.entries.map(\.name) == (0..<MediaLibrary.listingLimit).map { String(format: "clip-%05d.mp4", $0) })
    }

    @Test func readsAFewDurationsPerListingAndKeepsThem() throws {
        let (library, base) = try Self.library()
        defer { try? FileManager.default.removeItem(at: base) }
        let clips = base.appendingPathComponent("media/clips")
        try FileManager.default.createDirectory(at: clips, withIntermediateDirectories: true)
        try SessionSourceTests.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x48:rate=25:duration=1", "-c:v", "libx264",
                                       "-pix_fmt", "yuv420p", clips.appendingPathComponent("c000.mp4").path])
        let copies = MediaLibrary.probesPerListing + 3
        for index in 1..<copies {
            try FileManager.default.copyItem(at: clips.appendingPathComponent("c000.mp4"),
                                             to: clips.appendingPathComponent(String(format: "c%03d.mp4", index)))
        }
        let first = try library.listMedia(folder: "clips").entries
        #expect(first.count == copies && first.filter { $0.duration != nil }.count == MediaLibrary.probesPerListing)
        let second = try library.listMedia(folder: "clips").entries
        #expect(second.allSatisfy { abs(($0.duration ?? 0) - 1) < 0.1 }, "the rest are read by the next listing")
        // Another folder's listing keeps this one's durations; a file that changed is read again.
        _ = try library.listMedia(folder: "")
        try Data("not a video".utf8).write(to: clips.appendingPathComponent("c000.mp4"))
        let third = try library.listMedia(folder: "clips").entries
        #expect(third.first?.duration == nil && third.dropFirst().allSatisfy { $0.duration != nil })
    }

    @Test func encodesEveryKeyOfAnEntry() throws {
        let listing = MediaListing(folder: "a", entries: [MediaListing.Entry(name: "f", kind: .folder),
                                                          MediaListing.Entry(name: "x.mp4", kind: .file, size: 5, duration: 1.5)],
                                   truncated: false)
        let object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(listing)) as? [String: Any])
        let entries = try #require(object["entries"] as? [[String: Any]])
        #expect(object["folder"] as? String == "a" && object["truncated"] as? Bool == false)
        #expect(entries.allSatisfy { Set($0.keys) == ["name", "kind", "size", "duration"] })
        #expect(entries[0]["kind"] as? String == "folder" && entries[0]["size"] is NSNull && entries[0]["duration"] is NSNull)
        #expect(entries[1]["size"] as? Int == 5 && entries[1]["duration"] as? Double == 1.5)
    }
}
