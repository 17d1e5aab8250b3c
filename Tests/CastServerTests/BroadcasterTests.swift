@testable import CastServer
import CastProtocol
import Synchronization
import Testing

@Suite struct BroadcasterTests {
    static func fill(_ broadcaster: Broadcaster, sequence: UInt64, byte: UInt8) {
        broadcaster.publish { buffer in
            buffer.bodyDestination.update(repeating: byte, count: 10)
            buffer.bodyCount = 10
            buffer.setHeader(FrameHeader(flags: [], sequence: sequence, presentationTime: 0, sendTime: 0))
        }
    }

    @Test func latestWinsAndWakesEachTime() {
        let wakes = Atomic<Int>(0)
        let broadcaster = Broadcaster(maximumJPEGSize: 64) { wakes.add(1, ordering: .relaxed) }
        #expect(broadcaster.latestSequence == nil && broadcaster.latestJPEG() == nil)
        for sequence in 1...5 { Self.fill(broadcaster, sequence: UInt64(sequence), byte: UInt8(sequence)) }
        #expect(broadcaster.latestSequence == 5)
        #expect(broadcaster.latestJPEG() == [UInt8](repeating: 5, count: 10))
        #expect(wakes.load(ordering: .relaxed) == 5)
        #expect(broadcaster.bufferCount == 2, "with nothing borrowed two buffers alternate")
    }

    @Test func aBorrowedFrameIsNeverOverwritten() {
        let broadcaster = Broadcaster(maximumJPEGSize: 64) {}
        Self.fill(broadcaster, sequence: 1, byte: 1)
        let borrowed = broadcaster.borrowLatest()!
        for sequence in 2...10 { Self.fill(broadcaster, sequence: UInt64(sequence), byte: UInt8(sequence)) }
        #expect(borrowed.header.sequence == 1)
        #expect(Array(borrowed.body) == [UInt8](repeating: 1, count: 10))
        #expect(broadcaster.bufferCount == 3, "the borrowed one, the latest, and one to fill")
        broadcaster.giveBack(borrowed)
        for sequence in 11...20 { Self.fill(broadcaster, sequence: UInt64(sequence), byte: UInt8(sequence)) }
        #expect(broadcaster.bufferCount == 3, "no growth once buffers come back")
    }

    @Test func aChangeMarkIsNeverLostWithAnUnsentFrame() {
        let broadcaster = Broadcaster(maximumJPEGSize: 64) {}
        func publish(_ sequence: UInt64, marked: Bool) {
            broadcaster.publish { buffer in
                buffer.bodyCount = 0
                buffer.setHeader(FrameHeader(flags: marked ? .stateChanged : [], sequence: sequence,
                                             presentationTime: 0, sendTime: 0))
            }
        }
        func latestIsMarked() -> Bool {
            let frame = broadcaster.borrowLatest(toViewer: true)!
            defer { broadcaster.giveBack(frame) }
            return frame.header.flags.contains(.stateChanged)
                && FrameHeader(parsing: UnsafeRawBufferPointer(start: frame.payload, count: FrameHeader.size))?
                    .flags.contains(.stateChanged) == true
        }
        publish(1, marked: true)
        publish(2, marked: false)  // 1 was never sent: 2 carries the mark
        #expect(latestIsMarked())  // (this borrow counts as sending 2)
        publish(3, marked: false)
        #expect(!latestIsMarked(), "2 was sent with the mark: 3 is an ordinary frame")
        publish(4, marked: true)
        #expect(broadcaster.latestJPEG() != nil)  // a snapshot is not a viewer
        publish(5, marked: false)
        #expect(latestIsMarked(), "4 reached no viewer: 5 carries its mark")
    }

    @Test func headerAndHeadroomLayout() {
        let broadcaster = Broadcaster(maximumJPEGSize: 64) {}
        broadcaster.publish { buffer in
            buffer.bodyCount = 3
            buffer.bodyDestination.update(from: [0xFF, 0xD8, 0xD9], count: 3)
            buffer.setHeader(FrameHeader(flags: .stateChanged, sequence: 7, presentationTime: 1_500_000, sendTime: 0))
        }
        let frame = broadcaster.borrowLatest()!
        defer { broadcaster.giveBack(frame) }
        frame.stampSendTime(123)
        #expect(frame.payload - frame.storage == EncodedFrame.headroom)
        #expect(frame.payloadCount == FrameHeader.size + 3)
        let parsed = FrameHeader(parsing: UnsafeRawBufferPointer(start: frame.payload, count: frame.payloadCount))
        #expect(parsed == FrameHeader(flags: .stateChanged, sequence: 7, presentationTime: 1_500_000, sendTime: 123))
    }
}
