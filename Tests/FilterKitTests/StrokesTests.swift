@testable import FilterKit
import Testing

/// Strokes painted into a frame's planes: the capsule of each segment, chroma at half size.
@Suite struct StrokesTests {
    private func frame() -> Frame {
        let frame = Frame(width: 40, height: 30)
        frame.y.fill(16)
        frame.u.fill(128)
        frame.v.fill(128)
        return frame
    }

    @Test func aLinePaintsItsWidthAndNothingElse() {
        let picture = frame()
        let red = Strokes.Color(red: 255, green: 0, blue: 0)
        Strokes.polyline([(x: 5, y: 15), (x: 35, y: 15)], width: 4, color: red, into: picture)
        #expect(picture.y.row(15)[20] == red.y && picture.y.row(13)[20] == red.y && picture.y.row(16)[20] == red.y)
        #expect(picture.y.row(11)[20] == 16 && picture.y.row(19)[20] == 16, "beyond half the width")
        #expect(picture.y.row(15)[1] == 16 && picture.y.row(15)[38] == 16, "beyond the ends and their caps")
        #expect(picture.v.row(7)[10] == red.v && picture.u.row(7)[10] == red.u, "the chroma at half size")
        #expect(picture.v.row(2)[10] == 128)
    }

    @Test func colorsAreFullRangeBT601() {
        let white = Strokes.Color(red: 255, green: 255, blue: 255), black = Strokes.Color(red: 0, green: 0, blue: 0)
        #expect((white.y, white.u, white.v) == (255, 128, 128) && (black.y, black.u, black.v) == (0, 128, 128))
        let red = Strokes.Color(red: 255, green: 0, blue: 0)
        #expect(red.y == 76 && red.v == 255 && red.u == 85)
    }

    @Test func strokesOffThePictureAreClipped() {
        let picture = frame()
        Strokes.polyline([(x: -100, y: -100), (x: -50, y: 200)], width: 20, color: Strokes.Color(red: 9, green: 9, blue: 9), into: picture)
        Strokes.polyline([(x: 0, y: 0), (x: 1000, y: 1000)], width: 3, color: Strokes.Color(red: 255, green: 255, blue: 255), into: picture)
        #expect(picture.y.row(0)[0] == 255 && picture.y.row(29)[29] == 255 && picture.y.row(29)[0] == 16)
    }
}
