import FilterKit
@testable import MediaKit
import Testing

/// `FrameFitter`: what keeps an encoder's size while the session's changes.
@Suite struct FrameFitterTests {
    static func filled(width: Int, height: Int, y: UInt8, u: UInt8, v: UInt8) -> Frame {
        let frame = Frame(width: width, height: height)
        frame.y.fill(y)
        frame.u.fill(u)
        frame.v.fill(v)
        frame.time = 1.25
        return frame
    }

    @Test func aFrameOfTheSameSizeIsCopied() {
        let fitter = FrameFitter(width: 64, height: 48)
        let source = Self.filled(width: 64, height: 48, y: 200, u: 90, v: 160)
        let destination = Frame(width: 64, height: 48)
        fitter.fit(source, into: destination)
        #expect(destination.y.row(47)[63] == 200 && destination.u.row(0)[0] == 90 && destination.time == 1.25)
    }

    @Test func aPictureOfAnotherShapeIsScaledIntoItsFitWithBlackBars() {
        let fitter = FrameFitter(width: 128, height: 72)
        let destination = Frame(width: 128, height: 72)
        // 4:3 into 16:9: a 96x72 column at x 16, black either side.
        fitter.fit(Self.filled(width: 320, height: 240, y: 200, u: 90, v: 160), into: destination)
        let fit = PictureFit(pictureWidth: 320, pictureHeight: 240, frameWidth: 128, frameHeight: 72)
        #expect([fit.x, fit.width] == [16, 96])
        for row in [0, 35, 71] {
            let line = destination.y.row(row)
            #expect(line[0] == 0 && line[15] == 0 && line[16] == 200 && line[111] == 200 && line[112] == 0 && line[127] == 0)
        }
        #expect(destination.u.row(10)[7] == 128 && destination.u.row(10)[8] == 90 && destination.v.row(35)[55] == 160)
        #expect(destination.time == 1.25)
    }

    @Test func itFollowsEverySizeItIsHanded() {
        let fitter = FrameFitter(width: 64, height: 48)
        let destination = Frame(width: 64, height: 48)
        fitter.fit(Self.filled(width: 32, height: 24, y: 50, u: 128, v: 128), into: destination)
        #expect(destination.y.row(0)[0] == 50 && destination.y.row(47)[63] == 50, "the same shape covers the frame")
        fitter.fit(Self.filled(width: 48, height: 48, y: 90, u: 128, v: 128), into: destination)
        #expect(destination.y.row(24)[0] == 0 && destination.y.row(24)[32] == 90, "a square: bars again")
    }
}
