@testable import CastServer
import CastProtocol
import Testing

@Suite struct LadderTests {
    @Test func theStandardLadderFor720p25() {
        let offer = Ladder.standard(height: 720).renditions(width: 1280, height: 720, frameRate: 25)
        #expect(offer.map(\.id) == ["jpeg-720p", "jpeg-360p", "jpeg-180p", "h264-720p", "h264-360p"])
        #expect(offer.map(\.width) == [1280, 640, 320, 1280, 640])
        #expect(offer[3].bitsPerSecond == 4_000_000 && offer[4].bitsPerSecond == 1_400_000)
        #expect(offer[0].bitsPerSecond == nil)
    }

    @Test func theSecondPicturesComeAtTheJPEGSizesPreviewFirst() {
        let offer = Ladder.standard(height: 720).renditions(width: 1280, height: 720, frameRate: 25)
        let seconds = Ladder.seconds(of: offer)
        #expect(seconds.map(\.id) == ["preview-720p", "preview-360p", "preview-180p", "source-720p", "source-360p", "source-180p"])
        #expect(seconds.map(\.width) == [1280, 640, 320, 1280, 640, 320] && seconds.allSatisfy { $0.transport == .jpeg })
        #expect(seconds.map(\.second) == [.preview, .preview, .preview, .source, .source, .source])
        #expect(Ladder.seconds(of: offer + seconds) == seconds, "only the program's rungs have second pictures")
    }

    @Test func smallSourcesHaveFewerRungs() {
        #expect(Ladder.standard(height: 240).renditions(width: 320, height: 240, frameRate: 30).map(\.id)
                == ["jpeg-240p", "jpeg-120p", "h264-240p"])
        #expect(Ladder.standard(height: 100).jpeg == [100])
    }

    @Test func sizesKeepTheShapeAndAreEven() {
        #expect(Ladder.size(height: 360, sourceWidth: 1920, sourceHeight: 1080) == (640, 360))
        #expect(Ladder.size(height: 181, sourceWidth: 1280, sourceHeight: 720) == (320, 180))
        #expect(Ladder.size(height: 2000, sourceWidth: 1280, sourceHeight: 720) == (1280, 720), "never larger than the source")
        #expect(Ladder.size(height: 360, sourceWidth: 700, sourceHeight: 525) == (480, 360))
    }

    @Test func capsGrowWithPixelsAndRateButNotInProportion() {
        let full = Ladder.bitsPerSecond(width: 1920, height: 1080, frameRate: 30, fullPixels: 1920 * 1080)
        let half = Ladder.bitsPerSecond(width: 960, height: 540, frameRate: 30, fullPixels: 1920 * 1080)
        #expect(full == 10_800_000)
        #expect(half > full / 4 && half < full / 2)
        #expect(Ladder.bitsPerSecond(width: 160, height: 90, frameRate: 2, fullPixels: 1920 * 1080) == 200_000, "a floor")
    }

    @Test func aConfiguredLadderKeepsItsCaps() {
        let ladder = Ladder(jpeg: [720], h264: [.init(height: 720, bitsPerSecond: 4_000_000), .init(height: 240)])
        let offer = ladder.renditions(width: 1280, height: 720, frameRate: 30)
        #expect(offer.map(\.id) == ["jpeg-720p", "h264-720p", "h264-240p"])
        #expect(offer[1].bitsPerSecond == 4_000_000)
        #expect(offer[2].width == 426 || offer[2].width == 428)
    }

    @Test func aRungFollowsASourceOfAnotherSizeKeepingItsShareAndId() {
        let offer = Ladder.standard(height: 720).renditions(width: 1280, height: 720, frameRate: 25)
        let scales = offer.map { RungScale(start: $0, startHeight: 720, cap: nil, frameRate: 25) }
        #expect(scales.map { $0.rendition(width: 1280, height: 720) } == offer, "at the first size, the offer itself")
        let small = scales.map { $0.rendition(width: 640, height: 480) }
        #expect(small.map(\.id) == offer.map(\.id))
        #expect(small.map(\.width) == [640, 320, 160, 640, 320] && small.map(\.height) == [480, 240, 120, 480, 240])
        #expect(small[3].bitsPerSecond == Ladder.bitsPerSecond(width: 640, height: 480, frameRate: 25, fullPixels: 640 * 480))
        #expect(small[0].bitsPerSecond == nil)
        let upright = scales[1].rendition(width: 720, height: 1280)
        #expect((upright.width, upright.height) == (360, 640), "half of an upright source, its shape kept")
    }

    @Test func aCapTheLadderSetStaysAndSecondPicturesStaySecond() {
        let rung = Rendition(id: "h264-360p", transport: .h264, width: 640, height: 360, bitsPerSecond: 900_000)
        let scaled = RungScale(start: rung, startHeight: 720, cap: 900_000, frameRate: 25).rendition(width: 1920, height: 1080)
        #expect((scaled.width, scaled.height, scaled.bitsPerSecond) == (960, 540, 900_000))
        let source = Rendition(id: "source-720p", transport: .jpeg, width: 1280, height: 720, second: .source)
        let full = RungScale(start: source, startHeight: 720, cap: nil, frameRate: 25)
        #expect(full.isFullSize && full.rendition(width: 852, height: 480).second == .source)
        #expect((full.rendition(width: 852, height: 480).width, full.rendition(width: 852, height: 480).height) == (852, 480))
    }
}
