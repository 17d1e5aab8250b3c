@testable import CastServer
import CastProtocol
import Testing

/// The renditions follow the source's size: a source of another size changes every rendition's
/// size (ids and order kept) and the channel's viewers, and only they, are sent `renditions` once;
/// a newcomer's `hello` offers the new sizes.
@Suite struct ServerCoreRenditionTests {
    let harness = ServerCoreTests()

    /// Each viewer's `renditions` messages: their renditions' `[id: "WxH"]`.
    func renditionsWritten(_ core: ServerCore) -> [ConnectionID: [[String: String]]] {
        StudioTests().texts(core).mapValues { texts in
            texts.filter { $0["type"] as? String == "renditions" }.map { message in
                let list = message["renditions"] as? [[String: Any]] ?? []
                return Dictionary(uniqueKeysWithValues: list.map {
                    ($0["id"] as? String ?? "?", "\($0["width"] as? Int ?? 0)x\($0["height"] as? Int ?? 0)")
                })
            }
        }
    }

    @Test func aSourceOfAnotherSizeResizesEveryRenditionAndTellsTheChannelsViewersOnce() throws {
        let fixture = try CoreFixture(others: ["cam"])
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "main viewer")
        core.viewerConnected(2, token: nil, address: "cam viewer", channel: "cam")
        _ = harness.drainAll(core)

        fixture.outputs.sizes.sourceIs(width: 128, height: 72)
        core.woken(queuedBytes: { _ in 0 })
        let written = renditionsWritten(core)
        #expect(written[1] == [["jpeg-64": "128x72", "jpeg-32": "64x36", "preview-48p": "128x72", "source-48p": "128x72"]])
        #expect(written[2] == nil, "another channel's viewers are not told")
        #expect(fixture.outputs.offer.map(\.id) == ["jpeg-64", "jpeg-32", "preview-48p", "source-48p"])

        core.woken(queuedBytes: { _ in 0 })
        #expect(renditionsWritten(core)[1] == nil, "told once")
        core.viewerConnected(3, token: nil, address: "newcomer")
        let hello = StudioTests().texts(core)[3]?.first { $0["type"] as? String == "hello" }
        let offered = (hello?["renditions"] as? [[String: Any]])?.first
        #expect(offered?["width"] as? Int == 128 && offered?["height"] as? Int == 72)
    }
}
