@testable import MediaKit
import FilterKit
import Testing

/// The step cache on a real decoder: what a seek decoded serves the steps back after it, within
/// its bound; past the bound a step decodes again, and is still exact.
@Suite(.timeLimit(.minutes(2)))
struct DecodedPictureCacheTests {
    func decoder(stepCacheBytes: Int) throws -> Decoder {
        try Decoder(url: try SeekTests.oneKeyframe.make(), stepCache: StepCacheBudget(capacityBytes: stepCacheBytes))
    }

    @Test func stepsBackAfterASeekAreServedFromTheCache() throws {
        let decoder = try decoder(stepCacheBytes: 64 << 20)
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 1.2, into: frame)
        #expect(decoder.stepCache.heldBytes > 0, "the seek kept the pictures it decoded")
        let hits = decoder.stepCache.hits
        for index in stride(from: 29, through: 20, by: -1) {
            #expect(abs(try decoder.seek(to: Double(index) / 25, into: frame) - Double(index) / 25) < 1e-6)
        }
        #expect(decoder.stepCache.hits == hits + 10, "every step back was a picture held")
    }

    @Test func theBoundHoldsAndAStepPastItDecodesAgainExactly() throws {
        let measuring = try decoder(stepCacheBytes: 64 << 20)
        _ = try measuring.seek(to: 1.6, into: Frame(width: measuring.width, height: measuring.height))
        let pictureBytes = measuring.stepCache.heldBytes / measuring.stepCache.count
        let decoder = try decoder(stepCacheBytes: 8 * pictureBytes + pictureBytes / 2)
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 1.6, into: frame)
        #expect(decoder.stepCache.count == 8 && decoder.stepCache.heldBytes <= decoder.stepCache.capacityBytes)
        let misses = decoder.stepCache.misses
        #expect(abs(try decoder.seek(to: 0.4, into: frame) - 0.4) < 1e-6, "a picture the bound let go")
        #expect(decoder.stepCache.misses == misses + 1)
        #expect(decoder.stepCache.heldBytes <= decoder.stepCache.capacityBytes)
    }

    @Test func playingOnLetsThePicturesGo() throws {
        let decoder = try decoder(stepCacheBytes: 64 << 20)
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 1.2, into: frame)
        #expect(try decoder.decodeNext(into: frame) && decoder.stepCache.heldBytes == 0)
    }

    /// Stepping back through a file of 12-frame GOPs with room for 14 pictures: each GOP decoded
    /// for the steps back keeps its own start, the pictures after the playhead going first.
    @Test func playingBackwardTheLatestGoFirst() throws {
        let measuring = try Decoder(url: try SeekTests.clip.make())
        _ = try measuring.seek(to: 1.4, into: Frame(width: measuring.width, height: measuring.height))
        let pictureBytes = measuring.stepCache.heldBytes / measuring.stepCache.count
        let decoder = try Decoder(url: try SeekTests.clip.make(), stepCache: StepCacheBudget(capacityBytes: 14 * pictureBytes + pictureBytes / 2))
        decoder.stepCache.keepsEarlier = true
        let frame = Frame(width: decoder.width, height: decoder.height)
        for index in stride(from: 35, through: 12, by: -1) {
            #expect(abs(try decoder.seek(to: Double(index) / 25, into: frame) - Double(index) / 25) < 1e-6)
        }
        #expect(decoder.stepCache.misses == 2, "one decode a GOP: \(decoder.stepCache.misses) misses")
        #expect(decoder.stepCache.heldBytes <= decoder.stepCache.capacityBytes)
    }

    /// A seek far from pictures held (a loop's, a step's), with room for 16 of 12-frame GOPs: the
    /// bound lets go of those left behind, not of the pictures just before the seek's target
    /// (the steps back after it need them), forward and backward.
    @Test(arguments: [false, true]) func aSeekFarAwayKeepsThePicturesBeforeItsTarget(backward: Bool) throws {
        let measuring = try Decoder(url: try SeekTests.clip.make())
        _ = try measuring.seek(to: 1.4, into: Frame(width: measuring.width, height: measuring.height))
        let pictureBytes = measuring.stepCache.heldBytes / measuring.stepCache.count
        let decoder = try Decoder(url: try SeekTests.clip.make(), stepCache: StepCacheBudget(capacityBytes: 16 * pictureBytes + pictureBytes / 2))
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 8.0 / 25, into: frame)  // holds 0…8
        decoder.stepCache.keepsEarlier = backward
        _ = try decoder.seek(to: 35.0 / 25, into: frame)  // 24…35: over the bound
        let misses = decoder.stepCache.misses
        for index in stride(from: 34, through: 24, by: -1) {
            #expect(abs(try decoder.seek(to: Double(index) / 25, into: frame) - Double(index) / 25) < 1e-6)
        }
        #expect(decoder.stepCache.misses == misses, "the pictures before the target were let go")
    }

    @Test func whileALoopPlaysThePicturesPlayedStay() throws {
        let decoder = try decoder(stepCacheBytes: 64 << 20)
        decoder.keepsPlayedPictures = true
        let frame = Frame(width: decoder.width, height: decoder.height)
        _ = try decoder.seek(to: 1.2, into: frame)
        for _ in 0..<5 { #expect(try decoder.decodeNext(into: frame)) }
        let hits = decoder.stepCache.hits
        #expect(abs(try decoder.seek(to: 1.2, into: frame) - 1.2) < 1e-6)
        for _ in 0..<5 { #expect(try decoder.decodeNext(into: frame)) }
        #expect(decoder.stepCache.hits == hits + 6, "the wrap back and the five after it came from the cache")
    }
}
