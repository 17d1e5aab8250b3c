import FilterKit
import Foundation
@testable import MediaKit
import Synchronization
import Testing

/// A shared camera's pictures wait for its microphone's sound while pages play it — until the
/// sound `soundLead` past the picture has come, at most `soundWait`, or until half the queue waits
/// behind — and never for a recording alone nor for a microphone gone quiet.
@Suite struct BrowserSourceSoundWaitTests {
    private let picture: [UInt8]
    private let frame = Frame(width: 64, height: 64)
    /// A bound no test reaches unless the wait is broken.
    private static let longWait = Duration.seconds(5)

    init() throws {
        picture = try JPEGEncoder(width: 64, height: 64, quality: 80).encode(Frame(width: 64, height: 64))
    }

    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }

    /// A 64x64 JPEG camera with a stereo microphone whose packets go to `queue`, heard by pages
    /// when `heard`.
    private func camera(heard: Bool, soundWait: Duration = longWait) throws -> BrowserSource {
        let queue = AudioPacketQueue(capacity: 8)
        queue.setWanted(true)
        queue.setHeard(heard)
        let source = try BrowserSource(codec: .jpeg, name: "camera", announced: (64, 64), width: 64, height: 64,
                                       frameRate: 30, stallTimeout: .seconds(5), audio: (channels: 2, rate: 48000),
                                       soundWait: soundWait)
        source.routeAudio(to: queue)
        return source
    }

    private func offerPicture(_ source: BrowserSource, capturedAt time: Int64) {
        picture.withUnsafeBytes { _ = source.offer($0, keyframe: true, captureTime: time) }
    }

    private static func offerSound(_ source: BrowserSource, capturedAt time: Int64) {
        [UInt8](repeating: 0xfc, count: 40).withUnsafeBytes { source.audio?.offer($0, captureTime: time) }
    }

    /// Reads one frame; how long it took (s).
    private func timedRead(_ source: BrowserSource) throws -> Double {
        let start = ContinuousClock.now
        #expect(try source.read(into: frame))
        return start.duration(to: .now).seconds
    }

    @Test func aPictureWaitsUntilItsSoundHasComeWhilePagesPlayIt() throws {
        let source = try camera(heard: true)
        Self.offerSound(source, capturedAt: 1_000_000 + BrowserSource.soundLead - 20_000)  // not far enough past it
        offerPicture(source, capturedAt: 1_000_000)
        let soundSent = Flag()
        let sender = Thread { [source] in
            _ = source.audio?.waitForSoundWaiter(timeout: Self.longWait)  // the picture waits
            soundSent.value.store(true, ordering: .sequentiallyConsistent)
            Self.offerSound(source, capturedAt: 1_000_000 + BrowserSource.soundLead)
        }
        sender.start()
        let waited = try timedRead(source)
        let cameBefore = soundSent.value.load(ordering: .sequentiallyConsistent)
        #expect(cameBefore, "the picture was given out before its sound came")
        #expect(waited < Self.longWait.seconds - 1, "the sound's coming did not end the wait: \(waited) s")
        #expect(frame.time == 1.0)
    }

    @Test func aPictureWhoseSoundDoesNotComeWaitsNoLongerThanTheBound() throws {
        let source = try camera(heard: true, soundWait: .milliseconds(200))
        Self.offerSound(source, capturedAt: 900_000)
        offerPicture(source, capturedAt: 1_000_000)
        let waited = try timedRead(source)
        #expect(waited >= 0.19 && waited < 2, "waited \(waited) s")
    }

    @Test func picturesBackingUpBehindEndTheWait() throws {
        let source = try camera(heard: true)
        Self.offerSound(source, capturedAt: 900_000)
        offerPicture(source, capturedAt: 1_000_000)
        let sender = Thread { [self, source] in
            _ = source.audio?.waitForSoundWaiter(timeout: Self.longWait)  // the first picture waits
            for index in 1...BrowserSource.hurryBacklog { offerPicture(source, capturedAt: 1_000_000 + Int64(index) * 33_333) }
        }
        sender.start()
        #expect(try timedRead(source) < Self.longWait.seconds - 1, "the pictures backing up did not end the wait")
    }

    @Test(arguments: [false, true])
    func noPictureWaitsForARecordingAloneNorForAQuietMicrophone(heard: Bool) throws {
        let source = try camera(heard: heard)
        if heard {
            // Heard, but the microphone went quiet: its last packet came more than 0.5 s ago.
            Self.offerSound(source, capturedAt: 900_000)
            Thread.sleep(forTimeInterval: BrowserAudio.quietAfter.seconds + 0.1)
        }
        offerPicture(source, capturedAt: 1_000_000)
        #expect(try timedRead(source) < Self.longWait.seconds - 1)
    }
}
