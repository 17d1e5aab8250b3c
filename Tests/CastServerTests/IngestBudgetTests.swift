@testable import CastServer
import Testing

/// What a shared camera may send: bytes and pictures over two seconds, and its size.
@Suite struct IngestBudgetTests {
    @Test func aSteadyCameraUnderTheLimitsIsFineAndBurstsAreAveraged() {
        var limits = IngestLimits()
        limits.bitsPerSecond = 1_000_000
        var budget = IngestBudget(limits)
        let start = ContinuousClock.now
        // 30 pictures a second of 3 KB (720 kbit/s), with a 40 KB keyframe at the start.
        #expect(budget.spend(40_000, at: start) == nil)
        for index in 1..<300 {
            #expect(budget.spend(3_000, at: start + .milliseconds(index * 33)) == nil, "picture \(index)")
        }
    }

    @Test func overTheBitRateOrThePictureRateIsNamed() {
        var limits = IngestLimits()
        limits.bitsPerSecond = 1_000_000
        var bits = IngestBudget(limits)
        let start = ContinuousClock.now
        // 5 KB at 30 a second: 1.2 Mbit/s; the window holds 250 KB, so it fails within two seconds.
        let failure = (0..<90).lazy.compactMap { bits.spend(5_000, at: start + .milliseconds($0 * 33)) }.first
        #expect(failure?.contains("--max-ingest-bitrate") == true)
        var pictures = IngestBudget(IngestLimits())
        let tooMany = (0..<200).lazy.compactMap { pictures.spend(100, at: start + .milliseconds($0 * 8)) }.first
        #expect(tooMany?.contains("60 pictures a second") == true)
    }

    @Test func microphonePacketsHaveTheirOwnRateAndShareTheBitRate() {
        let start = ContinuousClock.now
        var steady = IngestBudget(IngestLimits())
        // 30 pictures and 50 Opus packets a second: neither rate is broken by the other.
        for index in 0..<300 {
            let at = start + .milliseconds(index * 20)
            #expect(steady.spend(200, isSound: true, at: at) == nil, "packet \(index)")
            if index % 5 < 3 { #expect(steady.spend(3_000, at: at) == nil, "picture at \(index)") }
        }
        var flood = IngestBudget(IngestLimits())
        let tooMany = (0..<400).lazy.compactMap { flood.spend(50, isSound: true, at: start + .milliseconds($0 * 5)) }.first
        #expect(tooMany?.contains("microphone sends over 100 packets a second") == true)
        var limits = IngestLimits()
        limits.bitsPerSecond = 100_000
        var loud = IngestBudget(limits)
        // 50 packets of 400 bytes a second: 160 kbit/s.
        let overBits = (0..<200).lazy.compactMap { loud.spend(400, isSound: true, at: start + .milliseconds($0 * 20)) }.first
        #expect(overBits?.contains("--max-ingest-bitrate") == true)
    }

    @Test func theSizeIsTheSessionsAtMostOrTurnedUpright() {
        let limits = IngestLimits()
        #expect(limits.refusal(width: 1280, height: 720, largest: (1280, 720)) == nil)
        #expect(limits.refusal(width: 720, height: 1280, largest: (1280, 720)) == nil)
        #expect(limits.refusal(width: 640, height: 480, largest: (1280, 720)) == nil)
        #expect(limits.refusal(width: 1920, height: 1080, largest: (1280, 720))?.contains("1280x720") == true)
        #expect(limits.refusal(width: 1400, height: 200, largest: (1280, 720)) != nil)
    }
}
