@testable import CastServer
import FilterKit
import Foundation
import Testing

/// `--channels-file`: read (created when missing), bad files refused with one line naming the
/// file, and rewritten whole when a channel is added or removed at run time.
@Suite struct ChannelsFileTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("channels-\(UUID().uuidString)").path

    init() throws { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }

    func channels(in path: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return try #require(object?["channels"] as? [[String: Any]])
    }

    @Test func aMissingFileIsCreatedEmptyAndAGoodOneGivesItsChannelsWithTheirFilters() throws {
        let path = folder + "/channels.json"
        #expect(try ChannelsFile(path: path, catalog: .standard).channels(catalog: .standard).isEmpty)
        #expect(try channels(in: path).isEmpty)
        try Data(#"{"channels": [{"name": "cam", "input": "test:64x48@30", "filter": {"name": "sepia"}, "alwaysOn": true}, {"name": "door", "input": "a.mp4", "token": "d00r"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let read = try ChannelsFile(path: path, catalog: .standard).channels(catalog: .standard)
        #expect(read.map(\.name.description) == ["cam", "door"])
        #expect(read[0].filter?.first.name == "sepia" && read[1].filter == FilterChain.none)
        #expect(read[0].alwaysOn && !read[1].alwaysOn)
        #expect(read[0].token == nil && read[1].token == "d00r")
        #expect(read[1].configuring(ServerConfiguration(webRoot: "")).channelTokens == [read[1].name: "d00r"])
        #expect(read[0].configuring(ServerConfiguration(webRoot: "")).alwaysOn == [read[0].name])
    }

    @Test(arguments: [
        ("not json", "is not"), (#"{"channels": [{"input": "a.mp4"}]}"#, "entry 1: no \"name\""),
        (#"{"channels": [{"name": "Cam", "input": "a.mp4"}]}"#, "not a channel name"),
        (#"{"channels": [{"name": "a", "input": "a.mp4"}, {"name": "a", "input": "b.mp4"}]}"#, "entry 2: the channel 'a' is given twice"),
        (#"{"channels": [{"name": "a", "input": "a.mp4", "filter": {"name": "nope"}}]}"#, "entry 1"),
        (#"{"channels": [], "more": 1}"#, "is not"),
        (#"{"channels": [{"name": "a", "input": "a.mp4", "alwaysOn": 1}]}"#, "entry 1: \"alwaysOn\" must be true or false"),
        (#"{"channels": [{"name": "a", "input": "a.mp4", "token": ""}]}"#, "entry 1: \"token\" must be a string of 1 to 256 bytes"),
    ])
    func aBadFileIsOneLineNamingTheFileAndTheProblem(_ text: String, _ problem: String) throws {
        let path = folder + "/bad.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        do {
            _ = try ChannelsFile(path: path, catalog: .standard)
            Issue.record("\(text) was taken")
        } catch {
            #expect(error.description.contains(path) && error.description.contains(problem) && !error.description.contains("\n"),
                    "\(error.description)")
        }
    }

    @Test func channelsAddedAndRemovedAtRunTimeAreWrittenToTheFile() throws {
        let path = folder + "/channels.json"
        let file = try ChannelsFile(path: path, catalog: .standard)
        let fixture = try CoreFixture(token: "secret", adminToken: "boss", channelsFile: file)
        defer { fixture.core.channelDesk.stopAll() }
        let admin = ServerCoreChannelAdminTests()
        guard case .answer(201, _) = admin.put("cam", #"{"input": "test:64x48@30", "filter": {"name": "sepia"}}"#, fixture) else {
            Issue.record("not added"); return
        }
        let kept = try channels(in: path)
        #expect(kept.map { $0["name"] as? String } == ["cam"] && kept.first?["input"] as? String == "test:64x48@30")
        #expect((kept.first?["filter"] as? [String: Any])?["name"] as? String == "sepia")
        #expect(try ChannelsFile(path: path, catalog: .standard).channels(catalog: .standard).map(\.name.description) == ["cam"],
                "what was written reads back")
        guard case .answer(200, _) = admin.delete("cam", fixture) else { Issue.record("not removed"); return }
        #expect(try channels(in: path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["channels.json"], "no temporary file is left")
        let permissions = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(permissions == 0o600, "it may hold channels' tokens: its owner's only, not \(String(permissions ?? 0, radix: 8))")
    }
}
