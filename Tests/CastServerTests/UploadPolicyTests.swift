@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// What an upload may be called and how large it may be, decided before its body is taken;
/// and the uploads folder: placing never overwrites, hidden temporaries are neither listed nor
/// openable, stale ones go at start.
@Suite struct UploadPolicyTests {
    static let policy = UploadPolicy(maxBytes: 1_000_000, reserveBytes: 500_000)

    @Test(arguments: ["clip.mp4", "My Holiday (2).MOV", "a.b.webm", "été.mkv", "x.ts"])
    func acceptsPlainVideoNames(name: String) throws {
        #expect(try UploadPolicy.validatedName(name) == name)
    }

    @Test(arguments: [
        ("", "empty"), ("a/b.mp4", "not a path"), ("..", "hidden"), ("a\\b.mp4", "not a path"),
        (".hidden.mp4", "hidden"), ("bad\u{0}.mp4", "control"), ("line\nbreak.mp4", "control"),
        ("notes.txt", "video extension"), ("mp4", "video extension"), ("clip.", "video extension"),
        (String(repeating: "é", count: 60) + ".mp4", "longer than 120 bytes"),
    ])
    func refusesOtherNames(name: String, why: String) {
        let error = #expect(throws: UploadPolicy.Refusal.self) { _ = try UploadPolicy.validatedName(name) }
        #expect(error?.status == 400 && error?.message.contains(why) == true, "\(String(describing: error))")
    }

    @Test(arguments: [
        ("1000", 10_000_000, nil), ("1000000", 10_000_000, nil),
        (nil, 10_000_000, 411), ("", 10_000_000, 400), ("12a", 10_000_000, 400), ("-5", 10_000_000, 400),
        ("+5", 10_000_000, 400), ("99999999999999999999", 10_000_000, 400), ("0", 10_000_000, 400),
        ("1000001", 10_000_000, 413),
        // 600 kB free less the 500 kB reserve leaves room for 100 kB.
        ("100000", 600_000, nil), ("100001", 600_000, 413), ("10", 0, 413), ("10", -1, 413),
    ] as [(String?, Int64, UInt32?)])
    func sizeAgainstTheLimitAndTheDisk(contentLength: String?, free: Int64, refused: UInt32?) {
        do {
            let size = try Self.policy.admittedSize(contentLength: contentLength, freeBytes: free)
            #expect(refused == nil && String(size) == contentLength)
        } catch {
            #expect(error.status == refused, "\(error)")
        }
    }

    @Test func sayWhichLimitRefused() {
        let limit = #expect(throws: UploadPolicy.Refusal.self) { _ = try Self.policy.admittedSize(contentLength: "2000000", freeBytes: 1 << 40) }
        #expect(limit?.message.contains("--max-upload-size 1000000 bytes") == true)
        let disk = #expect(throws: UploadPolicy.Refusal.self) { _ = try Self.policy.admittedSize(contentLength: "200000", freeBytes: 600_000) }
        #expect(disk?.message.contains("free disk") == true && disk?.message.contains("--min-free-space") == true)
    }

    @Test func placingNeverOverwritesAndTemporariesStayHidden() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("uploads-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Data("stale".utf8).write(to: base.appendingPathComponent(".upload-old.part"))
        let library = try MediaLibrary(recordingsPath: base.appendingPathComponent("rec").path, mediaPath: nil,
                                       uploadsPath: base.path)
        let folder = try #require(library.uploads)
        #expect(!FileManager.default.fileExists(atPath: base.appendingPathComponent(".upload-old.part").path))

        var placed: [String] = []
        for content in ["one", "two", "three"] {
            let temporary = try folder.createTemporary().get()
            _ = content.utf8CString.withUnsafeBytes { write(temporary.descriptor, $0.baseAddress, content.utf8.count) }
            close(temporary.descriptor)
            #expect(Set(library.listUploads().map(\.name)) == Set(placed), "a temporary file is not listed")
            #expect(throws: ProtocolError.self) { _ = try library.resolve("uploads/" + (temporary.path as NSString).lastPathComponent) }
            placed.append(try folder.place(temporary.path, as: "clip.mp4"))
            #expect(!FileManager.default.fileExists(atPath: temporary.path))
        }
        #expect(placed == ["clip.mp4", "clip-1.mp4", "clip-2.mp4"])
        #expect(try String(contentsOfFile: base.appendingPathComponent("clip.mp4").path, encoding: .utf8) == "one")
        #expect(Set(library.listUploads().map(\.name)) == Set(placed))
        #expect(try library.resolve("uploads/clip-1.mp4").area == .uploads)
        #expect(throws: ProtocolError.self) { _ = try library.resolve("uploads/x/clip.mp4") }
        try library.delete("uploads/clip-2.mp4")
        #expect(library.listUploads().count == 2)
    }

    @Test func withoutUploadsTheAreaIsForbidden() throws {
        let (library, base) = try MediaLibraryTests.library()
        defer { try? FileManager.default.removeItem(at: base) }
        #expect(MediaLibraryTests.code(library, "uploads/a.mp4") == .forbidden)
        #expect(library.listUploads().isEmpty)
    }

}
