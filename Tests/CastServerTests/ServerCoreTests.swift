@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// The server core driven exactly as the lws adapter drives it — connect, messages in, writable
/// callbacks, leaving, wake-ups — on a clock the test moves. No socket, no sleep.
@Suite struct ServerCoreTests {
    /// What one writable callback wrote: a JSON message, a binary message's magic, or a close.
    enum Written: Equatable {
        case json([String: String])
        case binary(magic: String, sequence: UInt64)
        case close(Int32)
    }

    /// Sends `text` from viewer `id` as one complete message.
    func send(_ text: String, from id: ConnectionID, to core: ServerCore) {
        var text = text
        text.withUTF8 { core.received(id, UnsafeRawBufferPointer($0), isBinary: false, isLast: true, roundTrip: { .zero }) }
    }

    /// Runs the writable callbacks the core asks for, as lws would, until it asks for none, and
    /// returns what they wrote to each viewer (string fields of JSON messages; `type` always).
    func drainAll(_ core: ServerCore) -> [ConnectionID: [Written]] {
        var written: [ConnectionID: [Written]] = [:]
        for _ in 0..<100 {
            let requests = core.takeWriteRequests()
            if requests.isEmpty { break }
            for id in requests { written[id, default: []] += writeOnce(id, core) }
        }
        return written
    }

    /// What viewer `id` was written until the core asked for nothing more (others' writes are made too).
    func drain(_ id: ConnectionID, _ core: ServerCore) -> [Written] { drainAll(core)[id] ?? [] }

    /// One writable callback of viewer `id`.
    func writeOnce(_ id: ConnectionID, _ core: ServerCore) -> [Written] {
        var written: [Written] = []
        let outcome = core.writeViewer(id) { bytes, count, kind in
            let data = Data(bytes: bytes, count: count)
            if kind == .binary {
                let magic = String(decoding: data.prefix(4), as: UTF8.self)
                let sequence = data.dropFirst(8).prefix(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
                written.append(.binary(magic: magic, sequence: sequence))
            } else if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
                written.append(.json(object.compactMapValues { value in
                    (value as? String) ?? (value as? NSNumber).map { "\($0)" }
                }))
            }
            return true
        }
        if case .close(let status, _) = outcome { written.append(.close(status)) }
        return written
    }

    /// A core with viewers `ids` connected, their hellos written.
    func viewersConnected(_ ids: ConnectionID...) throws -> CoreFixture {
        let fixture = try CoreFixture()
        for id in ids { fixture.core.viewerConnected(id, token: nil, address: "viewer \(id)") }
        _ = drainAll(fixture.core)
        return fixture
    }

    func types(_ written: [Written]) -> [String] {
        written.map { item in
            switch item {
            case .json(let fields): fields["type"] ?? "?"
            case .binary(let magic, _): magic
            case .close(let status): "close \(status)"
            }
        }
    }

    // MARK: - Connecting

    @Test func aViewerGetsHelloThenEveryoneTheNewCount() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        let first = drain(1, core)
        #expect(types(first).first == "hello")
        guard case .json(let hello) = first[0] else { return }
        #expect(hello["access"] == "control")
        core.viewerConnected(2, token: nil, address: "b")
        #expect(types(drain(1, core)) == ["state"], "the first viewer hears of the second")
        #expect(core.state(of: fixture.main).viewers == 2)
        core.viewerLeft(2)
        #expect(types(drain(1, core)) == ["state"])
        #expect(fixture.counters.viewers.value == 1)
    }

    @Test func aForeignPageAndAClientOverTheLimitAreRefusedBeforeTheUpgrade() throws {
        let core = try CoreFixture(maxClients: 1).core
        let foreign = HTTPRequest(method: .get, path: "/ws", arguments: [:],
                                  headers: [.origin: "http://evil.example", .host: "127.0.0.1:8080"])
        let own = HTTPRequest(method: .get, path: "/ws", arguments: [:],
                              headers: [.origin: "http://127.0.0.1:8080", .host: "127.0.0.1:8080"])
        #expect(core.admit(foreign)?.code == 403)
        #expect(core.admit(own) == nil)
        #expect(core.admit(HTTPRequest(method: .get, path: "/ws", arguments: [:])) == nil, "tools send no Origin")
        core.viewerConnected(1, token: nil, address: "a")
        #expect(core.admit(own)?.code == 503)
    }

    @Test func withoutTheTokenAViewerSeesNothingUntilItAuthenticates() throws {
        let fixture = try CoreFixture(token: "secret")
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        guard case .json(let hello) = drain(1, core).first else { Issue.record("no hello"); return }
        #expect(hello["access"] == "none")
        #expect(fixture.outputs.jpeg[0]!.audience.load(ordering: .relaxed) == 0, "nothing is encoded for it")
        fixture.publishFrame()
        core.woken(queuedBytes: { _ in 0 })
        #expect(drain(1, core).isEmpty)
        send(#"{"type": "auth", "token": "wrong", "id": 1}"#, from: 1, to: core)
        guard case .json(let refusal) = drain(1, core).first else { Issue.record("no answer"); return }
        #expect(refusal["type"] == "error" && refusal["id"] == "1")
        send(#"{"type": "auth", "token": "secret", "id": 2}"#, from: 1, to: core)
        #expect(fixture.outputs.jpeg[0]!.audience.load(ordering: .relaxed) == 1)
        #expect(types(drain(1, core)) == ["ack", "state", "FCF1"])
    }

    @Test func aPublicViewerWatchesButCannotCommand() throws {
        let fixture = try CoreFixture(token: "secret", publicView: true)
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        guard case .json(let hello) = drain(1, core).first else { Issue.record("no hello"); return }
        #expect(hello["access"] == "watch")
        send(#"{"type": "pause", "id": 3}"#, from: 1, to: core)
        guard case .json(let refusal) = drain(1, core).first else { Issue.record("no answer"); return }
        #expect(refusal["code"] == "unauthorized" && refusal["id"] == "3")
    }

    // MARK: - Commands

    @Test func aCommandIsAcknowledgedAndEveryViewerGetsTheNewState() throws {
        let fixture = try viewersConnected(1, 2)
        let core = fixture.core
        send(#"{"type": "setFilter", "name": "sepia", "params": {"intensity": 0.5}, "id": 7}"#, from: 1, to: core)
        let written = drainAll(core)
        #expect(types(written[1] ?? []) == ["ack", "activity", "state"], "the answer, who changed what, the new state")
        #expect(written[1]?.first == .json(["type": "ack", "id": "7"]))
        #expect(types(written[2] ?? []) == ["activity", "state"])
        #expect(fixture.session.selection.chain.first.name == "sepia")
    }

    @Test func aRefusedCommandCarriesItsIDAndChangesNothing() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = drain(1, core)
        send(#"{"type": "seek", "position": 3, "id": 9}"#, from: 1, to: core)
        guard case .json(let refusal) = drain(1, core).first else { Issue.record("no answer"); return }
        #expect(refusal["code"] == "not_seekable" && refusal["id"] == "9")
        send(#"{"type": "nonsense"}"#, from: 1, to: core)
        #expect(types(drain(1, core)) == ["error"])
    }

    // MARK: - Frames

    @Test func framesGoOutAsTheFlowWindowAllows() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = drain(1, core)
        var sent: [UInt64] = []
        for _ in 0..<3 {
            fixture.publishFrame()
            core.woken(queuedBytes: { _ in 0 })
            sent += drain(1, core).compactMap { if case .binary(_, let sequence) = $0 { sequence } else { nil } }
        }
        #expect(sent == [1, 2], "a window of two frames in flight")
        send(#"{"type": "frameAck", "seq": 2}"#, from: 1, to: core)
        #expect(drain(1, core) == [.binary(magic: "FCF1", sequence: 3)], "the ack opens the window to the newest frame")
        #expect(fixture.counters.framesSent.value == 3)
    }

    // MARK: - Audiences

    @Test func theOutputsDemandFollowsWhoWatches() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        let full = fixture.outputs.jpeg[0]!, half = fixture.outputs.jpeg[1]!
        let rerenders = fixture.session.rerender.count
        core.viewerConnected(1, token: nil, address: "a")
        #expect(full.audience.load(ordering: .relaxed) == 1 && half.audience.load(ordering: .relaxed) == 0)
        #expect(fixture.session.rerender.count == rerenders + 1, "a newcomer to an idle rendition gets the current frame")
        send(#"{"type": "watch", "transport": "jpeg", "rendition": "jpeg-32"}"#, from: 1, to: core)
        #expect(full.audience.load(ordering: .relaxed) == 0 && half.audience.load(ordering: .relaxed) == 1)
        core.watcherJoined(5, .mjpeg(rendition: 0), of: fixture.main)
        core.watcherJoined(6, .snapshot(rendition: 0), of: fixture.main)
        #expect(full.audience.load(ordering: .relaxed) == 2 && core.mjpegReaderCount == 1)
        core.watcherLeft(6)
        core.watcherLeft(5)
        core.viewerLeft(1)
        #expect(core.audience(of: fixture.main) == Audience(viewers: [], watchers: []))
        #expect(full.audience.load(ordering: .relaxed) == 0 && half.audience.load(ordering: .relaxed) == 0)
    }

    // MARK: - Wake-ups

    @Test func thePeriodicStateFollowsTheClock() throws {
        let fixture = try CoreFixture()
        let core = fixture.core
        core.viewerConnected(1, token: nil, address: "a")
        _ = drain(1, core)
        #expect(fixture.session.playback.isPlaying)
        fixture.clock.now += .milliseconds(100)
        core.woken(queuedBytes: { _ in 0 })
        #expect(drain(1, core).isEmpty, "not yet")
        fixture.clock.now += StateBroadcastSchedule.interval
        core.woken(queuedBytes: { _ in 0 })
        #expect(types(drain(1, core)) == ["state"])
    }

    @Test func aRecordingThatStoppedByItselfIsToldToEveryViewer() throws {
        let fixture = try viewersConnected(1, 2)
        let core = fixture.core
        fixture.wake.recordingEnded("the disk is full", channel: .main)
        core.woken(queuedBytes: { _ in 0 })
        let all = drainAll(core)
        for id in [1, 2] {
            let written = all[id] ?? []
            #expect(types(written) == ["error", "state"])
            guard case .json(let error) = written.first else { continue }
            #expect(error["code"] == "recording_failed" && error["message"]?.contains("the disk is full") == true)
        }
    }

    @Test func stoppingClosesEveryViewerGoingAway() throws {
        let core = try CoreFixture().core
        core.viewerConnected(1, token: nil, address: "a")
        _ = drain(1, core)
        core.shutDown()
        #expect(drain(1, core) == [.close(1001)])
    }
}
