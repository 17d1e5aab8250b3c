import FilterKit
import MediaKit
import Testing

@Suite struct PictureFitTests {
    @Test func sameShapeCoversTheFrame() {
        let fit = PictureFit(pictureWidth: 640, pictureHeight: 360, frameWidth: 1280, frameHeight: 720)
        #expect([fit.x, fit.y, fit.width, fit.height] == [0, 0, 1280, 720])
        #expect(fit.covers(width: 1280, height: 720))
    }

    @Test func nearlyTheSameShapeIsScaledNotBarred() {
        let fit = PictureFit(pictureWidth: 1920, pictureHeight: 1088, frameWidth: 1920, frameHeight: 1080)
        #expect(fit.covers(width: 1920, height: 1080))
    }

    @Test func uprightPhoneInALandscapeSessionIsPillarboxed() {
        let fit = PictureFit(pictureWidth: 720, pictureHeight: 1280, frameWidth: 1280, frameHeight: 720)
        // 720 × 720/1280 = 405 → 406 (even), centred: (1280 − 406) / 2 = 437 → 436 (even).
        #expect([fit.x, fit.y, fit.width, fit.height] == [436, 0, 406, 720])
        #expect(!fit.covers(width: 1280, height: 720))
    }

    @Test func widePictureInATallerFrameIsLetterboxed() {
        let fit = PictureFit(pictureWidth: 2560, pictureHeight: 1080, frameWidth: 1280, frameHeight: 720)
        // 1280 / (2560/1080) = 540, centred: (720 − 540) / 2 = 90.
        #expect([fit.x, fit.y, fit.width, fit.height] == [0, 90, 1280, 540])
    }

    @Test func degenerateShapesStayInsideTheFrame() {
        for (w, h) in [(1, 10_000), (10_000, 1), (0, 0), (16, 16)] {
            let fit = PictureFit(pictureWidth: w, pictureHeight: h, frameWidth: 320, frameHeight: 240)
            #expect(fit.width >= 2 && fit.height >= 2)
            #expect(fit.x >= 0 && fit.y >= 0 && fit.x + fit.width <= 320 && fit.y + fit.height <= 240)
            #expect(fit.x % 2 == 0 && fit.y % 2 == 0 && fit.width % 2 == 0 && fit.height % 2 == 0)
        }
    }
}

@Suite struct LetterboxTests {
    /// A white upright clip opened at a landscape size: the picture keeps its shape in the
    /// middle (white), black bars either side — not a white frame stretched across.
    @Test func anUprightPictureIsPillarboxedNotStretched() throws {
        let path = try TestClips.clip("upright-white.mp4", ["-f", "lavfi", "-i", "color=white:size=180x320:rate=10:duration=0.5",
                                                                  "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let source = try InputSpec.file(path).open(SourceOptions(outputSize: (width: 320, height: 180)))
        let frame = Frame(width: 320, height: 180)
        #expect(try source.read(into: frame))
        let fit = PictureFit(pictureWidth: 180, pictureHeight: 320, frameWidth: 320, frameHeight: 180)
        for row in [0, 90, 179] {
            let line = frame.y.row(row)
            #expect(line[0] == 0 && line[fit.x - 1] == 0 && line[fit.x + fit.width] == 0 && line[319] == 0, "row \(row): bars")
            #expect(line[fit.x + 2] > 240 && line[160] > 240 && line[fit.x + fit.width - 3] > 240, "row \(row): picture")
            let u = frame.u.row(row / 2), v = frame.v.row(row / 2)
            #expect(abs(Int(u[4]) - 128) <= 1 && abs(Int(v[155]) - 128) <= 2, "row \(row): neutral chroma")
        }
    }

    @Test func aSizeOverThePixelLimitIsReducedKeepingItsShape() {
        #expect(PictureFit.size(ofWidth: 1280, height: 720, maximumPixels: 1920 * 1080) == (1280, 720))
        #expect(PictureFit.size(ofWidth: 3840, height: 2160, maximumPixels: 1920 * 1080) == (1920, 1080))
        let upright = PictureFit.size(ofWidth: 2160, height: 3840, maximumPixels: 1920 * 1080)
        #expect(upright == (1080, 1920))
        let odd = PictureFit.size(ofWidth: 4001, height: 3001, maximumPixels: 1920 * 1080)
        #expect(odd.width % 2 == 0 && odd.height % 2 == 0 && odd.width * odd.height <= 1920 * 1080)
    }
}
