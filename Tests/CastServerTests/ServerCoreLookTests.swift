@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// Saved looks through the core: `saveLook` writes the program chain as a file, every viewer of
/// every channel hears the new list, `GET /api/looks` lists, `setFilter {look}` applies one on any
/// channel, `deleteLook` removes it; the refusals name the problem and change nothing.
@Suite struct ServerCoreLookTests {
    let writes = ServerCoreTests()

    private func answer(_ json: String, from id: ConnectionID, _ core: ServerCore) -> [String: String] {
        writes.send(json, from: id, to: core)
        let answers = writes.drain(id, core).compactMap { written -> [String: String]? in
            guard case .json(let object) = written, object["type"] == "ack" || object["type"] == "error" else { return nil }
            return object
        }
        return answers.first ?? [:]
    }

    private func heardLooks(_ written: [ServerCoreTests.Written]?) -> Bool {
        written?.contains { if case .json(let object) = $0 { object["type"] == "looks" } else { false } } == true
    }

    private func listing(_ fixture: CoreFixture) -> String {
        guard case .body(200, _, let json) = fixture.router.answer(HTTPRequest(method: .get, path: "/api/looks", arguments: [:])) else {
            return "not 200"
        }
        return String(decoding: json, as: UTF8.self)
    }

    @Test func aLookIsSavedListedAppliedOnAnotherChannelAndDeleted() throws {
        let fixture = try CoreFixture(others: ["cam"], looks: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        core.viewerConnected(2, token: nil, address: "b", channel: "cam")
        _ = writes.drainAll(core)
        #expect(answer(#"{"type":"setFilter","chain":[{"name":"sepia","params":{"intensity":0.25}},{"name":"invert"}],"id":1}"#,
                       from: 1, core)["type"] == "ack")
        writes.send(#"{"type":"saveLook","name":"old-film","id":2}"#, from: 1, to: core)
        let written = writes.drainAll(core)
        #expect(written[1]?.contains(.json(["type": "ack", "id": "2"])) == true)
        #expect(heardLooks(written[1]) && heardLooks(written[2]))
        let path = fixture.base + "/looks/old-film.json"
        let file = try LookParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), expectedName: "old-film")
        #expect(file.chain == [FilterLinkRequest(name: "sepia", params: ["intensity": 0.25]), FilterLinkRequest(name: "invert")])
        #expect(listing(fixture).hasPrefix(#"{"looks":[{"chain":[{"name":"sepia","params":{"intensity":0.25}},{"name":"invert"}],"created":"#))

        #expect(answer(#"{"type":"setFilter","look":"old-film","id":3}"#, from: 2, core) == ["type": "ack", "id": "3"])
        #expect(fixture.channels[1].session.selection.chain == fixture.session.selection.chain)

        #expect(answer(#"{"type":"deleteLook","name":"old-film","id":4}"#, from: 2, core) == ["type": "ack", "id": "4"])
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(listing(fixture) == #"{"looks":[]}"#)
    }

    @Test func aLookGoesToThePreviewAndThePreviewIsSaved() throws {
        let fixture = try CoreFixture(looks: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(core)
        _ = answer(#"{"type":"setFilter","name":"invert","to":"preview"}"#, from: 1, core)
        #expect(answer(#"{"type":"saveLook","name":"negative","from":"preview","id":1}"#, from: 1, core)["type"] == "ack")
        #expect(core.configuration.looks?.look(named: "negative")?.chain == [FilterLinkRequest(name: "invert")])
        _ = answer(#"{"type":"setFilter","name":"sepia","to":"preview"}"#, from: 1, core)
        #expect(answer(#"{"type":"setFilter","look":"negative","to":"preview","id":2}"#, from: 1, core)["type"] == "ack")
        #expect(fixture.session.studio.previewChain?.links.map(\.name) == ["invert"])
        #expect(fixture.session.selection.chain == .none, "never on air by itself")
    }

    @Test func savingUnderATakenNameReplacesTheLook() throws {
        let fixture = try CoreFixture(looks: true)
        fixture.core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(fixture.core)
        #expect(answer(#"{"type":"saveLook","name":"x","id":1}"#, from: 1, fixture.core)["type"] == "ack")
        _ = answer(#"{"type":"setFilter","name":"invert"}"#, from: 1, fixture.core)
        #expect(answer(#"{"type":"saveLook","name":"x","id":2}"#, from: 1, fixture.core)["type"] == "ack")
        #expect(fixture.core.configuration.looks?.look(named: "x")?.chain == [FilterLinkRequest(name: "invert")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.base + "/looks") == ["x.json"])
    }

    @Test func refusalsNameTheProblemAndChangeNothing() throws {
        let fixture = try CoreFixture(looks: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(core)
        _ = answer(#"{"type":"setFilter","name":"invert"}"#, from: 1, core)
        let unknown = answer(#"{"type":"setFilter","look":"nope","id":1}"#, from: 1, core)
        #expect(unknown["code"] == "not_found" && unknown["message"] == "no look named 'nope' (there are none)")
        #expect(answer(#"{"type":"deleteLook","name":"nope"}"#, from: 1, core)["code"] == "not_found")
        let preview = answer(#"{"type":"saveLook","name":"a","from":"preview"}"#, from: 1, core)
        #expect(preview["code"] == "invalid_argument" && preview["message"]?.contains("the preview has no chain yet") == true)
        #expect(fixture.session.selection.chain.links.map(\.name) == ["invert"])
        #expect(CoreFixture.files(in: fixture.base + "/looks").isEmpty)
    }

    @Test func aLookNamingAnUnknownFilterIsRefusedByTheCatalog() throws {
        let fixture = try CoreFixture(looks: true)
        let folder = try #require(fixture.core.configuration.looks)
        try folder.save(Look(name: "odd", created: nil, chain: [FilterLinkRequest(name: "sepia"), FilterLinkRequest(name: "wobble")]))
        fixture.core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(fixture.core)
        let refused = answer(#"{"type":"setFilter","look":"odd"}"#, from: 1, fixture.core)
        #expect(refused["code"] == "unknown_filter" && refused["message"]?.contains("wobble") == true, "\(refused)")
        #expect(fixture.session.selection.chain == .none)
    }

    @Test func aViewerWhoMayOnlyWatchCannotSaveOrDelete() throws {
        let fixture = try CoreFixture(token: "t0k", publicView: true, looks: true)
        fixture.core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(fixture.core)
        #expect(answer(#"{"type":"saveLook","name":"x"}"#, from: 1, fixture.core)["code"] == "unauthorized")
        #expect(CoreFixture.files(in: fixture.base + "/looks").isEmpty)
    }

    @Test func withoutALooksFolderTheCommandsSaySo() throws {
        let fixture = try CoreFixture()
        fixture.core.viewerConnected(1, token: nil, address: "a")
        _ = writes.drainAll(fixture.core)
        #expect(answer(#"{"type":"saveLook","name":"x"}"#, from: 1, fixture.core)["message"] == "this server keeps no looks (--looks)")
        guard case .status(404, _, _) = fixture.router.answer(HTTPRequest(method: .get, path: "/api/looks", arguments: [:])) else {
            Issue.record("GET /api/looks without --looks is not 404"); return
        }
    }
}

/// The looks folder: read at start (leftovers of a cut write removed, a file that is not a look
/// named), bounded, written atomically.
@Suite struct LookFolderTests {
    private func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("looks-\(UUID().uuidString)").path
    }

    private func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test func looksSurviveARestartAndLeftoversAreRemoved() throws {
        let path = folder()
        let looks = try LookFolder(path: path)
        try looks.save(Look(name: "a", chain: .none))
        try write("half", path + "/" + LookFolder.temporaryPrefix + "cut")
        try write("not a look", path + "/notes.txt")
        let again = try LookFolder(path: path)
        #expect(again.all.map(\.name) == ["a"] && again.look(named: "a") == looks.look(named: "a"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == ["a.json", "notes.txt"])
    }

    @Test func aFileThatIsNotALookStopsTheStartNamingIt() throws {
        let path = folder()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try write(#"{"name":"b","chain":[{"name":"sepia"}]}"#, path + "/a.json")
        do {
            _ = try LookFolder(path: path)
            Issue.record("a look under another file's name read")
        } catch {
            #expect(error.description == #"--looks: \#(path)/a.json is not a look: look.name is "b" but the file is named for "a""#)
        }
        try write("{}", path + "/a.json")
        try write("{}", path + "/Bad Name.json")
        do {
            _ = try LookFolder(path: path)
        } catch {
            #expect(error.description.contains("Bad Name.json is not a look's file"), "\(error)")
        }
    }

    @Test func atMostCapacityLooks() throws {
        let path = folder()
        let looks = try LookFolder(path: path)
        for index in 0..<LookFolder.capacity { try looks.save(Look(name: "l\(index)", chain: .none)) }
        do {
            try looks.save(Look(name: "one-more", chain: .none))
            Issue.record("a look over the capacity saved")
        } catch {
            #expect(error.description == "the server keeps 256 looks, the most it takes: delete one first")
        }
        try looks.save(Look(name: "l0", chain: .none))  // replacing one is no more
        #expect(looks.all.count == LookFolder.capacity)
        try write(#"{"name":"one-more","chain":[{"name":"none"}]}"#, path + "/one-more.json")
        do {
            _ = try LookFolder(path: path)
            Issue.record("257 looks read")
        } catch {
            #expect(error.description.contains("holds more than 256 looks"))
        }
    }
}
