/// Paints strokes into a frame's YUV planes: a polyline of any width, each segment a capsule
/// (every sample whose centre lies within half the width of the segment takes the colour), the
/// chroma planes at their half resolution. Colours are full-range BT.601, as frames hold them.
/// Costs one pass over each segment's bounding box; no allocation.
public enum Strokes {
    /// A colour as a frame's planes hold it.
    public struct Color: Sendable, Equatable {
        public let y: UInt8
        public let u: UInt8
        public let v: UInt8

        /// `red`, `green`, `blue` (0…255) in full-range BT.601.
        public init(red: UInt8, green: UInt8, blue: UInt8) {
            let (r, g, b) = (Double(red), Double(green), Double(blue))
            func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
            y = byte(0.299 * r + 0.587 * g + 0.114 * b)
            u = byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
            v = byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
        }
    }

    /// The polyline through `points` (in the frame's pixels, x to the right, y down), `width`
    /// pixels wide (at least one), in `color`. One point paints a dot.
    public static func polyline(_ points: [(x: Double, y: Double)], width: Double, color: Color, into frame: Frame) {
        guard let first = points.first else { return }
        let radius = max(0.5, width / 2)
        var previous = first
        for point in points.dropFirst(points.count > 1 ? 1 : 0) {
            segment(from: previous, to: point, radius: radius, value: color.y, plane: frame.y, scale: 1)
            segment(from: previous, to: point, radius: radius, value: color.u, plane: frame.u, scale: 0.5)
            segment(from: previous, to: point, radius: radius, value: color.v, plane: frame.v, scale: 0.5)
            previous = point
        }
    }

    /// Fills the capsule of the segment `a`–`b` (frame pixels) in `plane`, whose samples are
    /// `scale` of a pixel's size.
    private static func segment(from a: (x: Double, y: Double), to b: (x: Double, y: Double), radius: Double, value: UInt8,
                                plane: Plane, scale: Double) {
        let (ax, ay, bx, by) = (a.x * scale, a.y * scale, b.x * scale, b.y * scale)
        let r = max(0.5, radius * scale)
        let minX = max(0, Int((min(ax, bx) - r).rounded(.down))), maxX = min(plane.width - 1, Int((max(ax, bx) + r).rounded(.up)))
        let minY = max(0, Int((min(ay, by) - r).rounded(.down))), maxY = min(plane.height - 1, Int((max(ay, by) + r).rounded(.up)))
        guard minX <= maxX, minY <= maxY else { return }
        let (dx, dy) = (bx - ax, by - ay)
        let lengthSquared = dx * dx + dy * dy
        let limit = r * r
        for row in minY...maxY {
            let samples = plane.row(row)
            let py = Double(row) + 0.5
            for column in minX...maxX {
                let px = Double(column) + 0.5
                // The nearest point of the segment to the sample's centre.
                let t = lengthSquared > 0 ? max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / lengthSquared)) : 0
                let (ex, ey) = (px - (ax + t * dx), py - (ay + t * dy))
                if ex * ex + ey * ey <= limit { samples[column] = value }
            }
        }
    }
}
