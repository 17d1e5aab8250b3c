@testable import CastServer
import CastProtocol
import Testing

/// A `seek`'s ack comes after the seek's frame, on the test's clock: no socket, no server.
extension ViewerSessionTests {
    @Test func aSeeksAckWaitsForItsFrameWhileTheWindowIsFull() {
        let watcher = viewer()
        for sequence in UInt64(1)...2 {
            #expect(writes(watcher, latest: sequence) == [.frame(rendition: 0)])
            watcher.frameSent(sequence)
        }
        send(#"{"type":"seek","position":1,"id":"s"}"#, to: watcher)
        watcher.acksWait(forJump: 1)
        // The jump's frame (3) is out, but the window is full: the frame goes first, then the ack.
        watcher.releaseAcks(jumpsOut: 1, supply: supply(3), frameInterval: Self.frameInterval)
        #expect(writes(watcher, latest: 3).isEmpty)
        clock.now += .milliseconds(10)
        send(#"{"type":"frameAck","seq":1}"#, to: watcher)
        #expect(writes(watcher, latest: 3) == [.frame(rendition: 0)])
        watcher.frameSent(3)
        watcher.releaseAcks(jumpsOut: 1, supply: supply(3), frameInterval: Self.frameInterval)
        let answers = messages(writes(watcher, latest: 3))
        #expect(answers.count == 1 && answers.first?["type"] as? String == "ack" && answers.first?["id"] as? String == "s")
    }
}
