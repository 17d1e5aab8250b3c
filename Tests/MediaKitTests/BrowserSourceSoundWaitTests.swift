import FilterKit
import Foundation
@testable import MediaKit
import Synchronization
import Testing

/// A shared camera's pictures wait for its microphone's sound while somebody listens — until the
/// sound `soundLead` past the picture has come, at most `maximumSoundWait` — and never otherwise.
@Suite struct BrowserSourceSoundWaitTests {
    private let picture: [UInt8]
    private let frame = Frame(width: 64, height: 64)

    init() throws {
        picture = try JPEGEncoder(width: 64, height: 64, quality: 80).encode(Frame(width: 64, height: 64))
    }

    /// A 64x64 JPEG camera with a stereo microphone whose packets go to `queue`.
    private func camera(listenedThrough queue: AudioPacketQueue) throws -> BrowserSource {
        let source = try BrowserSource(codec: .jpeg, name: "camera", announced: (64, 64), width: 64, height: 64,
                                       frameRate: 30, stallTimeout: .seconds(5), audio: (channels: 2, rate: 48000))
        source.routeAudio(to: queue)
        return source
    }

    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    private func offerPicture(_ source: BrowserSource, capturedAt time: Int64) {
        picture.withUnsafeBytes { _ = source.offer($0, keyframe: true, captureTime: time) }
    }

    private static func offerSound(_ source: BrowserSource, capturedAt time: Int64) {
        [UInt8](repeating: 0xfc, count: 40).withUnsafeBytes { source.audio?.offer($0, captureTime: time) }
    }

    @Test func aPictureWaitsUntilItsSoundHasComeWhileSomebodyListens() throws {
        let queue = AudioPacketQueue(capacity: 8)
        queue.setWanted(true)
        let source = try camera(listenedThrough: queue)
        Self.offerSound(source, capturedAt: 1_000_000 + BrowserSource.soundLead - 20_000)  // not far enough past it
        offerPicture(source, capturedAt: 1_000_000)
        let soundSent = Flag()
        let sender = Thread { [source] in
            Thread.sleep(forTimeInterval: 0.05)
            soundSent.value.store(true, ordering: .sequentiallyConsistent)
            Self.offerSound(source, capturedAt: 1_000_000 + BrowserSource.soundLead)
        }
        sender.start()
        #expect(try source.read(into: frame))
        let cameBefore = soundSent.value.load(ordering: .sequentiallyConsistent)
        #expect(cameBefore, "the picture was given out before its sound came")
        #expect(frame.time == 1.0)
    }

    @Test func aPictureWhoseSoundDoesNotComeWaitsNoLongerThanTheBound() throws {
        let queue = AudioPacketQueue(capacity: 8)
        queue.setWanted(true)
        let source = try camera(listenedThrough: queue)
        offerPicture(source, capturedAt: 1_000_000)
        let start = Date()
        #expect(try source.read(into: frame))
        let waited = Date().timeIntervalSince(start)
        #expect(waited >= BrowserSource.maximumSoundWait - 0.01 && waited < 2, "waited \(waited) s")
    }

    @Test func nobodyListeningNoPictureWaits() throws {
        let queue = AudioPacketQueue(capacity: 8)
        let source = try camera(listenedThrough: queue)
        offerPicture(source, capturedAt: 1_000_000)
        let start = Date()
        #expect(try source.read(into: frame))
        #expect(Date().timeIntervalSince(start) < BrowserSource.maximumSoundWait / 2)
    }
}
