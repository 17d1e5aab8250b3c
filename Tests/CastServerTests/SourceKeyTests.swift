@testable import CastServer
import Foundation
import Testing

/// What comments are filed under: a file's content, not its name or its place.
@Suite struct SourceKeyTests {
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)").path

    private func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try FileManager.default.createDirectory(atPath: (folder + "/" + name as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func twoFilesOfOneNameDifferAndACopyIsTheSame() throws {
        let a = try file("a/clip.mp4", Array(repeating: 1, count: 5000))
        let b = try file("b/clip.mp4", Array(repeating: 1, count: 4999) + [2])
        let copy = try file("c/other-name.mp4", Array(repeating: 1, count: 5000))
        #expect(SourceKey.ofFile(a) != SourceKey.ofFile(b), "one byte differs")
        #expect(SourceKey.ofFile(a) == SourceKey.ofFile(copy))
        #expect(SourceKey.ofFile(a)?.hasPrefix("f") == true && SourceKey.ofFile(a)?.count == 17)
        #expect(SourceKey.ofFile(folder + "/none.mp4") == nil && SourceKey.ofFile(folder) == nil, "nothing, or a folder")
    }

    @Test func aLargeFileIsKnownByItsSizeAndItsEnds() throws {
        let size = 3 * SourceKey.sample
        var bytes = [UInt8](repeating: 7, count: size)
        let whole = try file("big.mp4", bytes)
        bytes[size - 1] = 8
        let endChanged = try file("big-end.mp4", bytes)
        bytes[size - 1] = 7
        bytes[0] = 9
        let startChanged = try file("big-start.mp4", bytes)
        let longer = try file("big-longer.mp4", [UInt8](repeating: 7, count: size + 1))
        let keys = [whole, endChanged, startChanged, longer].map(SourceKey.ofFile)
        #expect(Set(keys).count == 4, "\(keys)")
    }

    @Test func aSourceThatIsNoFileIsKnownByItsName() {
        #expect(SourceKey.ofName("camera:/dev/video0") == SourceKey.ofName("camera:/dev/video0"))
        #expect(SourceKey.ofName("camera:/dev/video0") != SourceKey.ofName("camera:/dev/video1"))
        #expect(SourceKey.ofName("x").hasPrefix("n"))
    }

    @Test func theFolderReadsAFileAgainOnlyWhenItChanged() throws {
        let comments = CommentFolder(path: folder + "/comments")
        let path = try file("clip.mp4", Array(repeating: 3, count: 100))
        let first = comments.key(ofFile: path)
        #expect(first == SourceKey.ofFile(path))
        try Data(Array(repeating: 4, count: 100)).write(to: URL(fileURLWithPath: path))
        #expect(comments.key(ofFile: path) != first, "rewritten: its new content's key")
    }
}
