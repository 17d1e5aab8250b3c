@testable import CastServer
import CastProtocol
import Testing

/// `watch`: choosing the transport and rendition, and how a viewer on H.264 walks the log.
extension ViewerSessionTests {
    /// The H.264 log of rendition 1 at `latest`, its newest keyframe `keyframe` made `age` ago.
    func h264(latest: UInt64, keyframe: UInt64, age: Duration = .zero, oldest: UInt64 = 1) -> FrameSupply {
        FrameSupply(jpeg: [:], units: [1: AccessUnitLog.Position(latest: latest, keyframe: keyframe,
                                                               keyframeTime: clock.now - age, oldest: oldest)],
                    now: clock.now)
    }

    func unitWrites(_ viewer: ViewerSession, _ supply: FrameSupply) -> ViewerWrite {
        viewer.nextWrite(supply: supply, frameInterval: Self.frameInterval)
    }

    @Test func aViewerThatSaysNothingGetsJPEG() {
        let silent = viewer()
        #expect(silent.watching == Watching(transport: .jpeg, rendition: 0, pinned: false))
        #expect(unitWrites(silent, h264(latest: 5, keyframe: 1)) == .nothing, "no access units without watch")
    }

    @Test func watchH264StartsAtAFreshKeyframe() {
        let watcher = viewer()
        #expect(send(#"{"type":"watch","transport":"h264","id":1}"#, to: watcher) == .watching)
        #expect(messages(writes(watcher)).first?["type"] as? String == "ack")
        #expect(unitWrites(watcher, h264(latest: 7, keyframe: 5, age: .milliseconds(200))) == .unit(rendition: 1, sequence: 5))
        watcher.frameSent(5)
        #expect(unitWrites(watcher, h264(latest: 7, keyframe: 5)) == .unit(rendition: 1, sequence: 6), "then in order")
    }

    @Test func aStaleKeyframeIsNotAStartButARequest() {
        let watcher = viewer()
        send(#"{"type":"watch","transport":"h264"}"#, to: watcher)
        let stale = h264(latest: 90, keyframe: 30, age: .seconds(2))
        #expect(unitWrites(watcher, stale) == .nothing)
        #expect(watcher.keyframeNeeded(supply: stale, frameInterval: Self.frameInterval) == 1)
        #expect(watcher.keyframeNeeded(supply: h264(latest: 91, keyframe: 91), frameInterval: Self.frameInterval) == nil)
    }

    @Test func aViewerFarBehindJumpsToTheNewestKeyframe() {
        let watcher = viewer()
        send(#"{"type":"watch","transport":"h264"}"#, to: watcher)
        watcher.frameSent(1)
        send(#"{"type":"frameAck","seq":1}"#, to: watcher)
        // 0.5 s at 30 fps is 16 units: 10 behind continues, 40 behind jumps.
        #expect(unitWrites(watcher, h264(latest: 11, keyframe: 9)) == .unit(rendition: 1, sequence: 2))
        #expect(unitWrites(watcher, h264(latest: 41, keyframe: 31)) == .unit(rendition: 1, sequence: 31))
        #expect(unitWrites(watcher, h264(latest: 41, keyframe: 1)) == .unit(rendition: 1, sequence: 2),
                "no newer keyframe: it goes on in order")
        #expect(watcher.keyframeNeeded(supply: h264(latest: 41, keyframe: 1), frameInterval: Self.frameInterval) == 1,
                "and one is made for it")
        #expect(watcher.keyframeNeeded(supply: h264(latest: 11, keyframe: 1), frameInterval: Self.frameInterval) == nil)
    }

    @Test func unitsInFlightAreBounded() {
        let watcher = viewer()
        send(#"{"type":"watch","transport":"h264"}"#, to: watcher)
        for sequence in UInt64(1)...UInt64(ViewerFlow.unitWindow) {
            #expect(unitWrites(watcher, h264(latest: 100, keyframe: 1)) == .unit(rendition: 1, sequence: sequence))
            watcher.frameSent(sequence)
        }
        #expect(unitWrites(watcher, h264(latest: 100, keyframe: 1)) == .nothing)
        send(#"{"type":"frameAck","seq":3}"#, to: watcher)
        #expect(unitWrites(watcher, h264(latest: 100, keyframe: 1)) == .unit(rendition: 1, sequence: 9))
    }

    @Test func switchingBackToJPEGStartsTheFlowOver() {
        let watcher = viewer()
        send(#"{"type":"watch","transport":"h264"}"#, to: watcher)
        watcher.frameSent(500)
        #expect(send(#"{"type":"watch","transport":"jpeg"}"#, to: watcher) == .watching)
        #expect(writes(watcher, latest: 3) == [.frame(rendition: 0)], "JPEG sequences are their own")
    }

    @Test func aPinnedRenditionIsNamedByItsID() {
        let watcher = viewer()
        send(#"{"type":"watch","transport":"h264","rendition":"h264-48p"}"#, to: watcher)
        #expect(watcher.watching == Watching(transport: .h264, rendition: 1, pinned: true))
    }

    @Test(arguments: [
        (#"{"type":"watch","transport":"h264","rendition":"jpeg-48p","id":2}"#, "watch.rendition must be one of \"auto\", \"h264-48p\" for h264"),
        (#"{"type":"watch","transport":"vp9","id":2}"#, "watch.transport must be one of \"jpeg\", \"h264\""),
        (#"{"type":"watch","id":2}"#, "watch.transport is required"),
    ])
    func badWatchesAreRefusedAndChangeNothing(_ message: String, _ expected: String) {
        let watcher = viewer()
        #expect(send(message, to: watcher) == .none)
        let error = messages(writes(watcher)).first
        #expect(error?["type"] as? String == "error")
        #expect((error?["message"] as? String)?.hasPrefix(expected) == true, "\(error?["message"] ?? "")")
        #expect(error?["id"] as? Double == 2)
        #expect(watcher.watching.transport == .jpeg)
    }

    @Test func h264IsRefusedWhenNotOffered() {
        let jpegOnly = ViewerSession(token: nil, accessToken: nil, publicView: false, offer: [Self.offer[0]], now: { [clock] in clock.now })
        send(#"{"type":"watch","transport":"h264","id":"w"}"#, to: jpegOnly)
        let error = messages(writes(jpegOnly)).first
        #expect(error?["code"] as? String == "out_of_range")
        #expect(error?["message"] as? String == "watch.transport \"h264\" is not offered by this server (offered: jpeg)")
    }
}
