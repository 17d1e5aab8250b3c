@testable import MediaKit
import Testing

/// The timestamps a decoder gives frames, from what packets and frames carry (no FFmpeg).
@Suite struct TimestampReconstructionTests {
    /// 25 fps in a 1/12800 time base: 512 ticks a frame.
    private func make(start: Int64 = 0) -> TimestampReconstruction {
        TimestampReconstruction(startTimestamp: start, frameRate: 25, timeBase: 1.0 / 12800)
    }

    @Test func framesWithAPresentationTimeKeepFFmpegsGuess() {
        var times = make()
        #expect(times.frameDecoded(presentationTime: 1024, bestEffort: 1030) == 1030)
        #expect(times.counted == 1542)  // one frame (512 ticks) on
    }

    @Test func aGuessWithoutAPresentationTimeIsNotTrusted() {
        // FFmpeg guesses from the packet's decode time, late by the B-frame delay: counted instead.
        var times = make(start: 100)
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: 9999) == 100)
    }

    @Test func framesWithoutTimesAreCountedFromTheStreamsStartAfterTheOpen() {
        var times = make(start: 100)
        let stamps = (0..<3).map { _ in times.frameDecoded(presentationTime: nil, bestEffort: nil) }
        #expect(stamps == [100, 612, 1124])
    }

    @Test func theFirstKeyframePacketStartsTheCountAtItsDecodeTime() {
        var times = make()
        times.packetSent(isKeyframe: false, decodeTime: 5000, presentationTime: nil)  // no picture before a keyframe
        times.packetSent(isKeyframe: true, decodeTime: 2048, presentationTime: 2560)
        times.packetSent(isKeyframe: true, decodeTime: 9000, presentationTime: nil)  // only the first one counts
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == 2048)
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == 2560)
    }

    @Test func aKeyframeWithoutADecodeTimeStartsAtItsPresentationTime() {
        var times = make()
        times.packetSent(isKeyframe: true, decodeTime: nil, presentationTime: 3072)
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == 3072)
    }

    @Test func afterASeekTheTimeIsUnknownUntilAKeyframeSaysWhereItLanded() {
        var times = make(start: 100)
        _ = times.frameDecoded(presentationTime: nil, bestEffort: nil)
        times.sought()
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == nil)
        #expect(times.counted == nil)
        times.packetSent(isKeyframe: true, decodeTime: 51200, presentationTime: nil)
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == 51200)
        #expect(times.frameDecoded(presentationTime: nil, bestEffort: nil) == 51712)
    }

    @Test func anUnknownRateCountsThirtyFramesASecondAndAtLeastOneTick() {
        #expect(TimestampReconstruction(startTimestamp: 0, frameRate: nil, timeBase: 1.0 / 90000).ticksPerFrame == 3000)
        #expect(TimestampReconstruction(startTimestamp: 0, frameRate: 25, timeBase: 1).ticksPerFrame == 1)
    }
}

/// At most one warning a second through, the rest counted.
@Suite struct WarningRateLimitTests {
    @Test func oneWarningASecondGoesOutWithTheCountOfThoseHeldBack() {
        var limit = WarningRateLimit()
        let start = ContinuousClock.now
        #expect(limit.admit(at: start) == 0)
        #expect(limit.admit(at: start + .milliseconds(10)) == nil)
        #expect(limit.admit(at: start + .milliseconds(999)) == nil)
        #expect(limit.admit(at: start + .seconds(1)) == 2)
        #expect(limit.admit(at: start + .milliseconds(1500)) == nil)
        #expect(limit.admit(at: start + .seconds(5)) == 1)
        #expect(limit.admit(at: start + .seconds(6)) == 0)
    }

    @Test func theIntervalIsTheCallers() {
        var limit = WarningRateLimit(interval: .milliseconds(100))
        let start = ContinuousClock.now
        #expect(limit.admit(at: start) == 0)
        #expect(limit.admit(at: start + .milliseconds(50)) == nil)
        #expect(limit.admit(at: start + .milliseconds(100)) == 1)
    }
}
