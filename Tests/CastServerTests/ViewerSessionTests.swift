@testable import CastServer
import CastProtocol
import FilterKit
import Foundation
import Testing

/// A viewer's rules, driven message by message on a clock the test owns: no socket, no server.
@Suite struct ViewerSessionTests {
    static let frameInterval = Duration.milliseconds(33)
    /// What the server offers: JPEG and one H.264 rendition (index 1).
    static let offer = [Rendition(id: "jpeg-48p", transport: .jpeg, width: 64, height: 48),
                        Rendition(id: "h264-48p", transport: .h264, width: 64, height: 48, bitsPerSecond: 300_000)]

    /// The time the tests move on by hand.
    final class TestClock {
        var now = ContinuousClock.now
    }

    /// What the shared session was asked to apply, and what it answers (nil: accepted).
    final class CommandLog {
        var applied: [SessionCommand] = []
        var refusal: ProtocolError?
    }

    let clock = TestClock()
    let commands = CommandLog()

    func viewer(token: String? = nil, serverToken: String? = nil, publicView: Bool = false) -> ViewerSession {
        ViewerSession(token: token, accessToken: AccessToken(serverToken), publicView: publicView, offer: Self.offer,
                      now: { [clock] in clock.now })
    }

    /// Sends `text` as one complete text message.
    @discardableResult
    func send(_ text: String, to viewer: ViewerSession, roundTrip: Duration = .zero) -> ViewerSession.Outcome {
        var text = text
        return text.withUTF8 { receive(UnsafeRawBufferPointer($0), isLast: true, to: viewer, roundTrip: roundTrip) }
    }

    func receive(_ bytes: UnsafeRawBufferPointer, isBinary: Bool = false, isLast: Bool, to viewer: ViewerSession,
                 roundTrip: Duration = .zero) -> ViewerSession.Outcome {
        viewer.receive(bytes, isBinary: isBinary, isLast: isLast, roundTrip: { roundTrip }) { [commands] command, _ throws(ProtocolError) in
            if let refusal = commands.refusal { throw refusal }
            commands.applied.append(command)
        }
    }

    /// What the outputs hold: JPEG frame `latest` is the newest.
    func supply(_ latest: UInt64) -> FrameSupply { FrameSupply(jpeg: [0: latest], now: clock.now) }

    /// Every write due now, in order, up to the first `.frame` (which the test then reports sent).
    func writes(_ viewer: ViewerSession, latest: UInt64 = 0) -> [ViewerWrite] {
        var writes: [ViewerWrite] = []
        while writes.count < 1000 {
            let write = viewer.nextWrite(supply: supply(latest), frameInterval: Self.frameInterval)
            if write == .nothing { break }
            writes.append(write)
            if case .frame = write { break }
            if case .unit = write { break }
            if case .close = write { break }
        }
        return writes
    }

    /// The JSON objects of the text writes.
    func messages(_ writes: [ViewerWrite]) -> [[String: Any]] {
        writes.compactMap { write in
            guard case .text(let bytes) = write else { return nil }
            let json = try? JSONSerialization.jsonObject(with: Data(bytes.dropFirst(EncodedFrame.headroom)))
            return json as? [String: Any]
        }
    }

    func state() -> SessionState {
        SessionState(source: SourceState(kind: .test, name: "test", seekable: false, width: 64, height: 48, fps: 30,
                                         reference: "input"),
                     playing: true, position: 0, duration: nil, filter: .none, viewers: 1, fps: 0, recording: RecordingState())
    }

    // MARK: - Hello and access

    @Test func helloIsTheFirstMessageAndNamesTheAccess() {
        let open = viewer()
        open.greet(filters: FilterCatalog.standard.descriptors, state: state())
        let written = messages(writes(open))
        #expect(written.count == 1)
        #expect(written.first?["type"] as? String == "hello")
        #expect(written.first?["access"] as? String == "control")
        #expect(viewer(serverToken: "s").access == .none)
        #expect(viewer(serverToken: "s", publicView: true).access == .watch)
        #expect(viewer(token: "s", serverToken: "s").access == .control)
        #expect(viewer(token: "wrong", serverToken: "s").access == .none)
        // Without --token there is no token to give: `auth` is refused, commands are not.
        send(#"{"type":"auth","token":"x","id":1}"#, to: open)
        #expect(messages(writes(open)).first?["code"] as? String == "unauthorized")
        #expect(open.access == .control)
    }

    // MARK: - Commands and their answers

    @Test func anAppliedCommandIsAcknowledgedAndAsksForAStateBroadcast() {
        let open = viewer()
        #expect(send(#"{"type":"play","id":"p"}"#, to: open) == .applied(.play))
        #expect(commands.applied == [.play])
        let written = messages(writes(open))
        #expect(written.count == 1 && written[0]["type"] as? String == "ack" && written[0]["id"] as? String == "p")
    }

    @Test func aRefusalIsAnsweredWithTheIdOfTheCommand() {
        let open = viewer()
        commands.refusal = ProtocolError(code: .notSeekable, message: "the source is live")
        #expect(send(#"{"type":"seek","position":1,"id":7}"#, to: open) == .none)
        var written = messages(writes(open))
        #expect(written.count == 1, "no ack for a refused command")
        #expect(written.first?["code"] as? String == "not_seekable" && written.first?["id"] as? Double == 7)
        // A refusal by the parser keeps the id it read; one without an id has none.
        send(#"{"type":"seek","position":-1,"id":"s"}"#, to: open)
        send(#"{"type":"seek","position":"x"}"#, to: open)
        written = messages(writes(open))
        #expect(written.map { $0["code"] as? String } == ["out_of_range", "invalid_argument"])
        #expect(written[0]["id"] as? String == "s" && written[1]["id"] == nil)
    }

    @Test func frameAcknowledgementsAreNotAcknowledgedButFlowIs() {
        let open = viewer()
        send(#"{"type":"frameAck","seq":1,"id":1}"#, to: open)
        send(#"{"type":"flow","window":0,"id":2}"#, to: open)
        let written = messages(writes(open))
        #expect(written.map { $0["type"] as? String } == ["ack"])
        #expect(written.first?["id"] as? Double == 2)
        #expect(open.flow.window == 0 && commands.applied.isEmpty)
    }

    @Test func fragmentsAreJoinedIntoOneMessage() {
        let open = viewer()
        let parts = [#"{"type":"pa"#, #"use","id":3}"#]
        for (index, var part) in parts.enumerated() {
            _ = part.withUTF8 { receive(UnsafeRawBufferPointer($0), isLast: index == parts.count - 1, to: open) }
        }
        #expect(commands.applied == [.pause])
        #expect(messages(writes(open)).first?["type"] as? String == "ack")
    }

    @Test func binaryMessagesAreRefused() {
        let open = viewer()
        let bytes: [UInt8] = [1, 2, 3]
        _ = bytes.withUnsafeBytes { receive($0, isBinary: true, isLast: true, to: open) }
        let written = messages(writes(open))
        #expect(written.first?["code"] as? String == "invalid_argument")
        #expect(written.first?["message"] as? String == ProtocolError.binaryMessage.message)
    }

    @Test func aMessageOverTheLimitIsRefusedThenClosedWith1009() {
        let open = viewer()
        let chunk = [UInt8](repeating: 0x20, count: 40_000)
        _ = chunk.withUnsafeBytes { receive($0, isLast: false, to: open) }
        #expect(writes(open).isEmpty, "40 KB so far is within the limit")
        _ = chunk.withUnsafeBytes { receive($0, isLast: false, to: open) }
        let written = writes(open)
        #expect(messages(written).first?["code"] as? String == "too_large")
        #expect(written.last == .close(status: 1009, reason: "message too large"))
        #expect(send(#"{"type":"play"}"#, to: open) == .none, "nothing is read once closing")
        #expect(commands.applied.isEmpty)
    }

    // MARK: - Token

    @Test func withoutTheTokenCommandsAreUnauthorizedUntilAuth() {
        let guest = viewer(serverToken: "secret")
        #expect(send(#"{"type":"play","id":1}"#, to: guest) == .none)
        #expect(send(#"{"type":"auth","token":"nope","id":2}"#, to: guest) == .none)
        var written = messages(writes(guest))
        #expect(written.map { $0["code"] as? String } == ["unauthorized", "unauthorized"])
        #expect(written.map { $0["message"] as? String } == [ProtocolError.tokenRequired.message,
                                                             ProtocolError.wrongToken.message])
        #expect(written.map { $0["id"] as? Double } == [1, 2])
        #expect(commands.applied.isEmpty && !guest.mayWatch)

        #expect(send(#"{"type":"auth","token":"secret","id":3}"#, to: guest) == .authorized)
        let afterAuth = writes(guest)
        #expect(messages(afterAuth).first?["type"] as? String == "ack")
        #expect(afterAuth.last == .state, "the state in its hello may be old")
        #expect(send(#"{"type":"play"}"#, to: guest) == .applied(.play))
        written = messages(writes(guest))
        #expect(written.isEmpty && commands.applied == [.play])
    }

    @Test func aViewerWithoutTheTokenGetsNoFramesNoStateNoRecordingNews() {
        let guest = viewer(serverToken: "secret")
        guest.stateChanged()
        guest.recordingStopped("disk full")
        #expect(writes(guest, latest: 5).isEmpty)
        #expect(!guest.hasWork(supply: supply(5), frameInterval: Self.frameInterval))
        let watcher = viewer(serverToken: "secret", publicView: true)
        watcher.stateChanged()
        watcher.recordingStopped("disk full")
        let written = writes(watcher, latest: 5)
        #expect(messages(written).first?["code"] as? String == "recording_failed")
        #expect(messages(written).first?["message"] as? String == "recording stopped: disk full")
        #expect(Array(written.dropFirst()) == [.state, .frame(rendition: 0)])
    }

    // MARK: - Command budget

    @Test func aFloodGetsOneRateLimitedErrorThenAClose1008AfterTheAnswers() {
        let flooder = viewer()
        let budget = Int(CommandBudget.capacity)
        for index in 0..<budget { send(#"{"type":"pause","id":\#(index)}"#, to: flooder) }
        for _ in 0...CommandBudget.refusalsBeforeClosing {
            send(#"{"type":"pause","id":"over"}"#, to: flooder)
            send(#"{"type":"frameAck","seq":1}"#, to: flooder)  // never counted
        }
        #expect(commands.applied.count == budget)
        let written = writes(flooder)
        let answers = messages(written)
        #expect(answers.count == budget + 1)
        #expect(answers.dropLast().allSatisfy { $0["type"] as? String == "ack" })
        #expect(answers.last?["code"] as? String == "rate_limited")
        #expect(written.last == .close(status: 1008, reason: "command flood"))
    }

    @Test func overTheBudgetCommandsAreDroppedAndAPauseRefillsIt() {
        let busy = viewer()
        for _ in 0..<(Int(CommandBudget.capacity) + 10) { send(#"{"type":"pause"}"#, to: busy) }
        #expect(commands.applied.count == Int(CommandBudget.capacity))
        #expect(messages(writes(busy)).map { $0["code"] as? String } == ["rate_limited"])
        clock.now += .seconds(1)
        for _ in 0..<100 { send(#"{"type":"pause"}"#, to: busy) }
        #expect(commands.applied.count == Int(CommandBudget.capacity) + Int(CommandBudget.perSecond))
        #expect(writes(busy).isEmpty, "one error per episode")
    }

    // MARK: - Frames

    @Test func windowTwoLetsTwoFramesFlyThenWaitsForAnAck() {
        let watcher = viewer()
        for sequence in UInt64(1)...2 {
            #expect(writes(watcher, latest: sequence) == [.frame(rendition: 0)])
            watcher.frameSent(sequence)
        }
        #expect(writes(watcher, latest: 3).isEmpty)
        #expect(!watcher.hasWork(supply: supply(3), frameInterval: Self.frameInterval))
        clock.now += .milliseconds(10)
        send(#"{"type":"frameAck","seq":1}"#, to: watcher)
        #expect(watcher.hasWork(supply: supply(3), frameInterval: Self.frameInterval))
        #expect(writes(watcher, latest: 3) == [.frame(rendition: 0)])
        #expect(writes(watcher, latest: 2).isEmpty, "only frames newer than the last one sent")
    }

    @Test func aSlowReaderGetsOneFrameInFlight() {
        let slow = viewer()
        for sequence in UInt64(1)...4 {  // it takes 200 ms to show each frame, on a 1 ms round trip
            #expect(writes(slow, latest: sequence) == [.frame(rendition: 0)])
            slow.frameSent(sequence)
            clock.now += .milliseconds(200)
            send(#"{"type":"frameAck","seq":\#(sequence)}"#, to: slow, roundTrip: .milliseconds(1))
        }
        #expect(writes(slow, latest: 5) == [.frame(rendition: 0)])
        slow.frameSent(5)
        #expect(writes(slow, latest: 6).isEmpty, "a second frame would arrive 200 ms stale")
        let far = viewer()
        for sequence in UInt64(1)...4 {  // 80 ms round trip, 5 ms to show: keeps the window
            far.frameSent(sequence)
            clock.now += .milliseconds(85)
            send(#"{"type":"frameAck","seq":\#(sequence)}"#, to: far, roundTrip: .milliseconds(80))
        }
        far.frameSent(5)
        #expect(writes(far, latest: 6) == [.frame(rendition: 0)])
    }

    @Test func windowZeroSwitchesAcknowledgementsOff() {
        let watcher = viewer()
        send(#"{"type":"flow","window":0}"#, to: watcher)
        for sequence in UInt64(1)...10 {
            #expect(writes(watcher, latest: sequence) == [.frame(rendition: 0)])
            watcher.frameSent(sequence)
        }
        #expect(watcher.flow.framesSent == 10)
    }

    // MARK: - State, queue bound, shutdown

    @Test func aStateIsDueAfterAChangeAndCoalesced() {
        let watcher = viewer()
        watcher.stateChanged()
        watcher.stateChanged()
        #expect(writes(watcher, latest: 1) == [.state, .frame(rendition: 0)], "one state, before the frame")
        watcher.frameSent(1)
        #expect(writes(watcher, latest: 1).isEmpty)
    }

    @Test func aClientThatNeverReadsIsClosedRatherThanQueuedFor() {
        let stuck = viewer()
        for _ in 0...ViewerOutbox.maximumPendingText { stuck.recordingStopped("disk full") }
        #expect(writes(stuck).first == .close(status: 1008, reason: "too many unsent messages"))
    }

    @Test func shutdownClosesWith1001AtOnce() {
        let watcher = viewer()
        watcher.greet(filters: [], state: state())
        watcher.shutDown()
        #expect(writes(watcher, latest: 1) == [.close(status: 1001, reason: "server shutting down")])
        #expect(send(#"{"type":"play"}"#, to: watcher) == .none)
        #expect(commands.applied.isEmpty)
    }
}
