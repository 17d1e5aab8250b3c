import FilterKit
import Foundation

/// A comment's drawing burned into a frame (`/snapshot.jpg?comment=ID`): every shape turned into
/// polylines on the frame's pixels and painted by ``Strokes``: a line, an arrow with a head of
/// two strokes, a rect's and an ellipse's outline (the box of their two points), a freehand's
/// polyline. Widths are a part of the frame's width, as the page draws them.
public enum CommentDrawing {
    /// How many points an ellipse's outline is made of.
    public static let ellipseSegments = 72

    public static func burn(_ drawing: [CommentShape], into frame: Frame) {
        for shape in drawing {
            let (red, green, blue) = shape.rgb
            let color = Strokes.Color(red: red, green: green, blue: blue)
            let width = shape.width * Double(frame.width)
            for line in polylines(of: shape, width: Double(frame.width), height: Double(frame.height)) {
                Strokes.polyline(line, width: width, color: color, into: frame)
            }
        }
    }

    /// The polylines of `shape` on a picture of `width` × `height` pixels.
    public static func polylines(of shape: CommentShape, width: Double, height: Double) -> [[(x: Double, y: Double)]] {
        let points = shape.points.map { (x: $0[0] * width, y: $0[1] * height) }
        guard points.count >= 2 else { return [points] }
        let (a, b) = (points[0], points[1])
        switch shape.kind {
        case .line, .freehand:
            return [points]
        case .rect:
            return [[a, (b.x, a.y), b, (a.x, b.y), a]]
        case .ellipse:
            let (cx, cy, rx, ry) = ((a.x + b.x) / 2, (a.y + b.y) / 2, abs(b.x - a.x) / 2, abs(b.y - a.y) / 2)
            return [(0...ellipseSegments).map { step in
                let angle = Double(step) / Double(ellipseSegments) * 2 * .pi
                return (cx + rx * cos(angle), cy + ry * sin(angle))
            }]
        case .arrow:
            return [[a, b]] + head(from: a, to: b, stroke: shape.width * width)
        }
    }

    /// An arrow's head at `b`: two strokes 28° either side of the shaft, a fifth of its length
    /// (at least four stroke widths, at most its length).
    private static func head(from a: (x: Double, y: Double), to b: (x: Double, y: Double), stroke: Double) -> [[(x: Double, y: Double)]] {
        let (dx, dy) = (a.x - b.x, a.y - b.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return [] }
        let size = min(length, max(4 * stroke, length / 5))
        let angle = atan2(dy, dx), spread = 28 * Double.pi / 180
        return [angle - spread, angle + spread].map { side in [b, (b.x + size * cos(side), b.y + size * sin(side))] }
    }
}
