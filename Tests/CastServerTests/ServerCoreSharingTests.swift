@testable import CastServer
import CastProtocol
import Foundation
import Testing

/// A viewer's camera as the source, through the core: who may share, taking over, a message
/// that is not a picture, the sharing page leaving, a silent camera. No socket: the session's
/// player is real (not started) and switches sources as the decode thread would be told to.
@Suite struct ServerCoreSharingTests {
    let io = ServerCoreTests()
    static let start = #"{"type": "share", "action": "start", "codec": "jpeg", "width": 64, "height": 48, "label": "Cam", "id": 1}"#

    /// The state's source kind now, as a viewer would read it.
    func kind(_ core: ServerCore) -> SourceState.Kind { core.state(of: core.channels.defaultChannel).source.kind }

    @Test func aSharedCameraIsTheSourceUntilItsPageLeaves() throws {
        let fixture = try io.viewersConnected(1, 2)
        let core = fixture.core
        io.send(Self.start, from: 1, to: core)
        let written = io.drainAll(core)
        #expect(io.types(written[1] ?? []) == ["ack", "activity", "state"] && io.types(written[2] ?? []) == ["activity", "state"])
        #expect(kind(core) == .browser && core.state(of: fixture.main).source.name == "Cam (shared camera)" && fixture.session.sharer == 1)
        core.viewerLeft(1)
        #expect(io.types(io.drain(2, core)) == ["state"])
        #expect(kind(core) == .test && fixture.session.sharer == nil, "what played before comes back")
    }

    @Test func anotherViewerTakesTheCameraOverOnlyWhenItAsks() throws {
        let fixture = try io.viewersConnected(1, 2)
        let core = fixture.core
        io.send(Self.start, from: 1, to: core)
        _ = io.drainAll(core)
        io.send(Self.start, from: 2, to: core)
        guard case .json(let busy) = io.drain(2, core).first else { Issue.record("no answer"); return }
        #expect(busy["code"] == "busy" && fixture.session.sharer == 1)
        io.send(String(Self.start.dropLast()) + #", "takeOver": true}"#, from: 2, to: core)
        let written = io.drainAll(core)
        #expect(fixture.session.sharer == 2)
        #expect(io.types(written[1] ?? []).contains("shareEnded"), "the first sharer is told")
    }

    @Test func aBinaryMessageThatIsNoPictureEndsTheSharing() throws {
        let fixture = try io.viewersConnected(1)
        let core = fixture.core
        io.send(Self.start, from: 1, to: core)
        _ = io.drainAll(core)
        [UInt8](repeating: 7, count: 64).withUnsafeBytes { core.received(1, $0, isBinary: true, isLast: true, roundTrip: { .zero }) }
        #expect(io.types(io.drain(1, core)).first == "error")
        #expect(fixture.session.sharer == nil && kind(core) == .test)
    }

    @Test func aViewerWhoDoesNotShareCannotSendPictures() throws {
        let fixture = try io.viewersConnected(1)
        [UInt8](repeating: 7, count: 64).withUnsafeBytes {
            fixture.core.received(1, $0, isBinary: true, isLast: true, roundTrip: { .zero })
        }
        guard case .json(let refusal) = io.drain(1, fixture.core).first else { Issue.record("no answer"); return }
        #expect(refusal["code"] == "invalid_argument")
    }

    @Test func aSilentCameraLosesTheSource() throws {
        let fixture = try io.viewersConnected(1)
        let core = fixture.core
        io.send(Self.start, from: 1, to: core)
        _ = io.drainAll(core)
        // The session notes when pictures came on the monotonic clock: the core's is set from it.
        fixture.clock.now = .now
        core.woken(queuedBytes: { _ in 0 })
        #expect(fixture.session.sharer == 1)
        fixture.clock.now = .now + IngestLimits.silence
        core.woken(queuedBytes: { _ in 0 })
        #expect(fixture.session.sharer == nil)
        #expect(io.types(io.drain(1, core)).contains("shareEnded"))
    }
}
