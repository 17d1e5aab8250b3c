import CastProtocol
import FilterKit
import Testing

/// A comment's shapes as the strokes burned into its snapshot.
@Suite struct CommentDrawingTests {
    private func shape(_ kind: CommentShape.Kind, _ points: [[Double]]) -> CommentShape {
        CommentShape(kind: kind, points: points, color: "#ffffff", width: 0.05)
    }

    @Test func aRectIsItsOutlineAndAnEllipseGoesRoundItsBox() {
        let rect = CommentDrawing.polylines(of: shape(.rect, [[0.1, 0.2], [0.5, 0.6]]), width: 100, height: 50)
        #expect(rect.count == 1 && rect[0].count == 5)
        #expect(rect[0].map { [$0.x, $0.y] } == [[10, 10], [50, 10], [50, 30], [10, 30], [10, 10]])
        let ellipse = CommentDrawing.polylines(of: shape(.ellipse, [[0.2, 0.2], [0.6, 0.6]]), width: 100, height: 100)[0]
        #expect(ellipse.count == CommentDrawing.ellipseSegments + 1)
        #expect(ellipse.allSatisfy { abs(($0.x - 40) * ($0.x - 40) + ($0.y - 40) * ($0.y - 40) - 400) < 1e-6 })
    }

    @Test func anArrowHasTwoHeadStrokesAtItsEnd() {
        let lines = CommentDrawing.polylines(of: shape(.arrow, [[0, 0.5], [1, 0.5]]), width: 100, height: 100)
        #expect(lines.count == 3)
        for head in lines.dropFirst() {
            #expect(head[0].x == 100 && head[0].y == 50, "from the tip")
            #expect(head[1].x < 100 && abs(head[1].y - 50) > 1, "back and to one side")
        }
        #expect(Set(lines.dropFirst().map { $0[1].y > 50 }).count == 2, "one either side")
    }

    @Test func theDrawingBurnsIntoTheFrameInItsColour() {
        let frame = Frame(width: 64, height: 48)
        frame.y.fill(0)
        CommentDrawing.burn([CommentShape(kind: .line, points: [[0, 0.5], [1, 0.5]], color: "#ffffff", width: 0.05)], into: frame)
        #expect(frame.y.row(24)[32] == 255 && frame.y.row(10)[32] == 0)
    }
}
