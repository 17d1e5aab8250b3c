@testable import CastServer
import FilterKit
import Foundation
import Testing

/// `--luts DIR`: what is read at start, what refuses to start, and how an upload is stored.
@Suite struct LUTFolderTests {
    static let identity = "LUT_3D_SIZE 2\n0 0 0\n1 0 0\n0 1 0\n1 1 0\n0 0 1\n1 0 1\n0 1 1\n1 1 1\n"

    private func folder(_ files: [String: String]) throws -> String {
        let path = NSTemporaryDirectory() + "luts-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name)) }
        return path
    }

    @Test func readsEveryCubeByNameAndLeavesTheRest() throws {
        let path = try folder(["warm.cube": "TITLE \"Warm\"\n" + Self.identity, "a-1.cube": Self.identity, "notes.txt": "x",
                               ".hidden.cube": "junk", ShelfFolder.temporaryPrefix + "cut": "junk"])
        let luts = try LUTFolder(path: path)
        #expect(luts.library.listing.map(\.name) == ["a-1", "warm"])
        #expect(luts.library.listing.map(\.title) == ["", "Warm"])
        #expect(!FileManager.default.fileExists(atPath: path + "/" + ShelfFolder.temporaryPrefix + "cut"), "a crash's leftovers go")
    }

    @Test func aMissingFolderIsEmptyAndMadeWhenFirstWritten() throws {
        let path = NSTemporaryDirectory() + "luts-" + UUID().uuidString + "/new"
        let luts = try LUTFolder(path: path)
        #expect(luts.library.count == 0)
        #expect(!FileManager.default.fileExists(atPath: path), "reading makes no folder")
        try luts.folder.store(Array(Self.identity.utf8), as: "warm.cube")
        #expect(FileManager.default.fileExists(atPath: path + "/warm.cube"))
    }

    @Test func aFileWhereTheFolderShouldBeIsRefusedAsNotAFolder() throws {
        let path = NSTemporaryDirectory() + "luts-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        let refusal = #expect(throws: ShelfRefusal.self) { try LUTFolder(path: path) }
        #expect(refusal?.description.contains("is not a folder") == true, "\(String(describing: refusal))")
    }

    @Test(arguments: [
        (["bad.cube": "LUT_3D_SIZE 2\n0 0 0\n"], ["bad.cube", "line 2", "1 entries where LUT_3D_SIZE 2 needs 8"]),
        (["Bad Name.cube": identity], ["Bad Name.cube", "not a LUT name"]),
        (["x.cube": "LUT_3D_SIZE 2\n2 0 0\n"], ["x.cube", "line 2", "outside the domain"]),
    ])
    func refusesToStartOnABadFile(_ files: [String: String], _ words: [String]) throws {
        let path = try folder(files)
        do {
            _ = try LUTFolder(path: path)
            Issue.record("a bad folder was read")
        } catch {
            for word in words { #expect(error.description.contains(word), "\(error)") }
        }
    }

    @Test func storesAtomicallyAndNeverReplaces() throws {
        let path = try folder([:])
        let luts = try LUTFolder(path: path)
        guard case .success(let checked) = luts.check(Array(Self.identity.utf8), name: "fresh") else { Issue.record("refused"); return }
        #expect(throws: Never.self) { try luts.keep(checked, body: Array(Self.identity.utf8), name: "fresh").get() }
        #expect(try String(contentsOfFile: path + "/fresh.cube", encoding: .utf8) == Self.identity)
        #expect(throws: ShelfRefusal.self) { try luts.folder.store(Array("other".utf8), as: "fresh.cube") }
        #expect(try String(contentsOfFile: path + "/fresh.cube", encoding: .utf8) == Self.identity)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["fresh.cube"], "no temporary left")
        #expect(try LUTFolder(path: path).library.listing.map(\.name) == ["fresh"], "there after a restart")
    }
}
