@testable import MediaKit
import FilterKit
import Testing

/// Pictures decoded ahead of need into the step cache, on real decoders: the GOP before the
/// playhead's, playing backward, and a loop's in by a second decoder.
@Suite(.timeLimit(.minutes(2)))
struct DecodeAheadTests {
    /// Stepping back through 12-frame GOPs with a picture decoded behind after each step: only the
    /// first seek decodes; every step across a keyframe finds its picture held, and exact.
    @Test func playingBackwardTheGOPBeforeIsReadyAtItsKeyframe() throws {
        let path = try SeekTests.clip.make()
        let decoder = try Decoder(url: path, stepCache: StepCacheBudget(capacityBytes: 64 << 20))
        decoder.stepCache.keepsEarlier = true
        let frame = Frame(width: decoder.width, height: decoder.height)
        for index in stride(from: 35, through: 0, by: -1) {
            _ = try decoder.seek(to: Double(index) / 25, into: frame)
            if index % 12 == 11 { try SeekTests.expectFrame(frame, is: index, of: path, "step back to \(index)") }
            #expect(try decoder.decodeBehind() == (index >= 12), "at \(index): the GOP from 0 is the first")
        }
        #expect(decoder.stepCache.misses == 1, "\(decoder.stepCache.misses) seeks decoded")
    }

    /// Decoding behind moves the decoder: playing on forward still starts after the playhead.
    @Test func playingOnAfterDecodingBehindStartsAfterThePlayhead() throws {
        let path = try SeekTests.clip.make()
        let decoder = try Decoder(url: path)
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 30.0 / 25, into: frame)
        decoder.stepCache.keepsEarlier = true
        for _ in 0..<3 { #expect(try decoder.decodeBehind()) }
        decoder.stepCache.keepsEarlier = false
        for index in 31...33 {
            #expect(try decoder.decodeNext(into: frame))
            try SeekTests.expectFrame(frame, is: index, of: path, "playing on to \(index)")
        }
    }

    /// A loop set at 1.2 s with its in at 0.6 s (one keyframe, at 0): the second decoder's run from
    /// the in leads into the pictures played since, so that the wrap and every picture up to them
    /// come from the cache, exact.
    @Test func aLoopsInDecodedAheadLeadsIntoThePicturesPlayed() throws {
        let path = try SeekTests.oneKeyframe.make()
        let decoder = try Decoder(url: path, stepCache: StepCacheBudget(capacityBytes: 64 << 20))
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 1.0, into: frame)
        #expect(try decoder.decodeNext(into: frame))  // playing on lets the seek's pictures go
        decoder.keepsPlayedPictures = true
        for _ in 0..<3 { #expect(try decoder.decodeNext(into: frame)) }
        let preparation = LoopInPreparation(seconds: 0.6)
        var steps = 0
        while preparation.step(for: decoder) { steps += 1 }
        #expect(steps >= 15 && !preparation.step(for: decoder), "\(steps) pictures decoded ahead")
        let (hits, misses) = (decoder.stepCache.hits, decoder.stepCache.misses)
        _ = try decoder.seek(to: 0.6, into: frame)
        try SeekTests.expectFrame(frame, is: 15, of: path, "the wrap to the in")
        for index in 16...30 {
            #expect(try decoder.decodeNext(into: frame))
            try SeekTests.expectFrame(frame, is: index, of: path, "playing on from the in")
        }
        #expect(decoder.stepCache.misses == misses)
        #expect(decoder.stepCache.hits == hits + 15, "the in and the 14 pictures after it were held")
    }
}
