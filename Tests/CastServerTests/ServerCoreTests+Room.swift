@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// The review room through the core, as the adapter drives it: people, attribution, the
/// presenter, pointers.
extension ServerCoreTests {
    /// Every JSON message the core writes to each viewer until it asks for nothing more, whole.
    func messages(_ core: ServerCore) -> [ConnectionID: [[String: Any]]] { StudioTests().texts(core) }

    func ofType(_ type: String, _ messages: [[String: Any]]?) -> [[String: Any]] {
        (messages ?? []).filter { $0["type"] as? String == type }
    }

    @Test func aPagesSecondConnectionIsTheSamePersonCountedOnce() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a", person: "page-1", personName: "Ana")
        core.viewerConnected(2, token: nil, address: "a", person: "page-1")
        core.viewerConnected(3, token: nil, address: "b")
        var state = core.state(of: fixture.main)
        #expect(state.viewers == 2)
        #expect(state.people?.map(\.name) == ["Ana", "Guest 2"])
        send(#"{"type": "name", "name": " Bob ", "id": 1}"#, from: 3, to: core)
        #expect(ofType("state", messages(core)[1]).count == 1, "everyone hears of the new name")
        state = core.state(of: fixture.main)
        #expect(state.people?.map(\.name) == ["Ana", "Bob"])
        core.viewerLeft(1)
        #expect(core.state(of: fixture.main).viewers == 2, "Ana's second connection is still there")
        core.viewerConnected(4, token: nil, address: "c", personName: "\u{7}")
        #expect(ofType("error", messages(core)[4]).first?["code"] as? String == "invalid_argument", "a bad ?name= is told")
    }

    @Test func everyChangeIsAttributedToWhoMadeIt() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a", personName: "Ana")
        core.viewerConnected(2, token: nil, address: "b", personName: "Bob")
        _ = messages(core)
        send(#"{"type": "setFilter", "name": "sepia"}"#, from: 1, to: core)
        let written = messages(core)
        let activity = try #require(ofType("activity", written[2]).first)
        #expect(activity["summary"] as? String == "Ana switched the look to sepia" && activity["what"] as? String == "setFilter")
        #expect((activity["by"] as? [String: String])?["name"] == "Ana")
        #expect((ofType("state", written[2]).last?["changedBy"] as? [String: String])?["name"] == "Ana")
        send(#"{"type": "pause"}"#, from: 2, to: core)
        #expect(core.state(of: fixture.main).changedBy?.name == "Bob")
        let answer = core.answer(HTTPRequest(method: .get, path: "/api/activity", arguments: [:]))
        guard case .body(200, _, let body) = answer,
              let list = (try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["activity"] as? [[String: Any]] else {
            Issue.record("no activity: \(answer)")
            return
        }
        #expect(list.map { $0["what"] as? String } == ["setFilter", "pause"])
    }

    /// `activity.what` is the type each change was sent as (a look and a chain are `setFilter`
    /// too), for every command of the channel's or the server's scope the core carried out; one
    /// refused leaves no entry.
    @Test func theActivityNamesEachChangeByTheTypeItWasSentAs() throws {
        let fixture = try CoreFixture(looks: true, comments: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a", personName: "Ana")
        var samples = CommandTableTests.samples.filter { CommandTable.rule(for: $0.key).scope != .connection }.sorted { $0.key < $1.key }
        samples += [("saveLook", #"{"type":"saveLook","name":"warm"}"#), ("setFilter", #"{"type":"setFilter","look":"warm"}"#),
                    ("setFilter", #"{"type":"setFilter","chain":[{"name":"invert"},{"name":"sepia"}]}"#),
                    ("deleteLook", #"{"type":"deleteLook","name":"warm"}"#)]
        var attributed: Set<String> = []
        for (index, (type, json)) in samples.enumerated() {
            let before = core.activity(of: fixture.main).count
            send(json.dropLast() + #","id":"m\#(index)"}"#, from: 1, to: core)
            let acked = ofType("ack", messages(core)[1]).contains { $0["id"] as? String == "m\(index)" }
            let entries = core.activity(of: fixture.main).dropFirst(before).map(\.what)
            #expect(entries == (acked && type != "point" ? [type] : []), "\(json): acked \(acked)")
            if acked { attributed.insert(type) }
        }
        // The test pattern is live: it takes no seek, step or speed.
        let expected: Set = ["comment", "deleteLook", "loop", "open", "pause", "play", "present", "saveLook", "setCompare",
                             "setFilter", "setParams", "share"]
        #expect(attributed.isSuperset(of: expected), "carried out: \(attributed.sorted())")
    }

    @Test func aSliderDragIsOneEntryAndItsLastValue() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        send(#"{"type": "setFilter", "name": "sepia"}"#, from: 1, to: core)
        _ = messages(core)
        for value in [0.1, 0.2, 0.3] {
            send(#"{"type": "setParams", "params": {"intensity": \#(value)}}"#, from: 1, to: core)
            fixture.clock.now += .milliseconds(300)
        }
        #expect(ofType("activity", messages(core)[1]).map { $0["summary"] as? String } == ["Guest 1 set sepia intensity 0.1"])
        fixture.clock.now += .seconds(2)
        core.woken(queuedBytes: { _ in 0 })
        #expect(ofType("activity", messages(core)[1]).map { $0["summary"] as? String } == ["Guest 1 set sepia intensity 0.3"])
        #expect(core.activity(of: fixture.main).count == 2, "setFilter, then one entry for the drag")
    }

    @Test func thePresenterAloneDrivesPlaybackUntilTheAdminTakesOverOrTheyLeave() throws {
        let fixture = try CoreFixture(adminToken: "boss")
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a", personName: "Ana")
        core.viewerConnected(2, token: nil, address: "b", personName: "Bob")
        core.viewerConnected(3, token: "boss", address: "c", personName: "Cy")
        send(#"{"type": "present", "action": "take", "id": 1}"#, from: 1, to: core)
        #expect(core.state(of: fixture.main).presenter?.name == "Ana")
        _ = messages(core)
        send(#"{"type": "pause", "id": 2}"#, from: 2, to: core)
        let refusal = try #require(ofType("error", messages(core)[2]).first)
        #expect(refusal["code"] as? String == "not_presenter" && (refusal["message"] as? String)?.contains("Ana") == true)
        send(#"{"type": "setFilter", "name": "invert", "id": 3}"#, from: 2, to: core)
        #expect(ofType("ack", messages(core)[2]).count == 1, "looks stay open")
        send(#"{"type": "present", "action": "take", "force": true, "id": 4}"#, from: 2, to: core)
        #expect(ofType("error", messages(core)[2]).first?["code"] as? String == "not_presenter")
        send(#"{"type": "present", "action": "take", "force": true, "id": 5}"#, from: 3, to: core)
        #expect(core.state(of: fixture.main).presenter?.name == "Cy")
        #expect(core.state(of: fixture.main).people?.filter(\.presenter).map(\.name) == ["Cy"])
        core.viewerLeft(3)
        #expect(core.state(of: fixture.main).presenter == nil, "leaving releases")
        send(#"{"type": "pause", "id": 6}"#, from: 2, to: core)
        #expect(ofType("ack", messages(core)[2]).count == 1)
    }

    @Test func pointersAreRelayedToEveryoneAtMostThirtyASecondAndNotFromWatchers() throws {
        let fixture = try CoreFixture(token: "secret", publicView: true)
        let core = fixture.core
        core.viewerConnected(1, token: "secret", address: "a", personName: "Ana")
        core.viewerConnected(2, token: nil, address: "b")
        _ = messages(core)
        for step in 0..<40 {
            send(#"{"type": "point", "x": \#(Double(step) / 40), "y": 0.5}"#, from: 1, to: core)
            // Each written before the next: none is replaced by a later one of the same sender.
            #expect(ofType("pointer", messages(core)[2]).count == (step < PointerRate.perSecond ? 1 : 0))
        }
        fixture.clock.now += .seconds(1)
        send(#"{"type": "point"}"#, from: 1, to: core)
        let hidden = try #require(ofType("pointer", messages(core)[2]).first)
        #expect(hidden["x"] is NSNull && (hidden["by"] as? [String: String])?["name"] == "Ana")
        send(#"{"type": "point", "x": 0.1, "y": 0.1, "id": 1}"#, from: 2, to: core)
        #expect(ofType("error", messages(core)[2]).first?["code"] as? String == "unauthorized")
        #expect(core.activity(of: fixture.main).isEmpty, "pointing changes nothing")
    }

    @Test func aViewerThatDoesNotReadGetsTheNewestActivityAndStays() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        core.viewerConnected(2, token: nil, address: "b")
        _ = messages(core)
        let filters = ["sepia", "invert"]
        for index in 0..<100 {
            send(#"{"type": "setFilter", "name": "\#(filters[index % 2])"}"#, from: 1, to: core)
            _ = core.takeWriteRequests()  // nobody writes: viewer 2's socket is stuck
        }
        core.requestWrite(2)
        let written = drain(2, core)
        let activity = written.compactMap { item -> String? in
            guard case .json(let fields) = item, fields["type"] == "activity" else { return nil }
            return fields["id"]
        }
        #expect(activity.count == ViewerOutbox.maximumPendingActivity && activity.last == "100", "the newest \(activity.count)")
        #expect(!types(written).contains { $0.hasPrefix("close") }, "it is not closed for it")
    }
}
