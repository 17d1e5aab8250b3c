/// Feature points on a square grid, one per grid square, each moved from its square's centre by
/// a pseudo-random offset that depends only on the square's coordinates (a hash), so the pattern
/// is the same on every frame. One square is centred on `origin`.
///
/// A point belongs to the nearest feature point (Voronoi cells: crystallize). With a
/// `discRadius`, points farther than that from every feature point are background (discs:
/// pointillize).
public struct JitteredGrid: CellLayout {
    /// The largest offset, per axis, as a fraction of the spacing. Up to 0.328 the nearest
    /// feature point always lies in the 3×3 squares around a point, which is all that is searched.
    public static let jitter = 0.3

    public let spacing: Double
    public let discRadius: Double?
    /// Square (i, j) spans `corner + (i, j) × spacing` to one spacing further.
    public let corner: (x: Double, y: Double)
    /// The squares whose feature points can be the nearest to a point of the frame.
    let firstRow: Int, firstColumn: Int, columns: Int, rows: Int
    /// The feature points of those squares, row by row (cell numbers index this).
    public let points: [(x: Double, y: Double)]

    var cellCount: Int { points.count }

    /// The grid over a `width`×`height` frame.
    public init(spacing: Double, origin: (x: Double, y: Double), discRadius: Double? = nil, width: Int, height: Int) {
        precondition(spacing > 0, "grid spacing must be positive")
        self.spacing = spacing
        self.discRadius = discRadius
        corner = (origin.x - spacing / 2, origin.y - spacing / 2)
        firstColumn = Int(((0 - corner.x) / spacing).rounded(.down)) - 1
        firstRow = Int(((0 - corner.y) / spacing).rounded(.down)) - 1
        columns = Int(((Double(width) - corner.x) / spacing).rounded(.down)) + 1 - firstColumn + 1
        rows = Int(((Double(height) - corner.y) / spacing).rounded(.down)) + 1 - firstRow + 1
        var points: [(x: Double, y: Double)] = []
        points.reserveCapacity(columns * rows)
        for j in firstRow..<(firstRow + rows) {
            for i in firstColumn..<(firstColumn + columns) {
                let (dx, dy) = Self.offset(column: i, row: j)
                points.append((corner.x + (Double(i) + 0.5 + dx) * spacing, corner.y + (Double(j) + 0.5 + dy) * spacing))
            }
        }
        self.points = points
    }

    /// The feature point's offset in square (`column`, `row`), in spacings, each axis within
    /// ±``jitter``: two 24-bit fractions of a SplitMix64-finalised hash of the coordinates.
    public static func offset(column: Int, row: Int) -> (x: Double, y: Double) {
        var z = UInt64(bitPattern: Int64(column)) &* 0x9E37_79B9_7F4A_7C15
            ^ UInt64(bitPattern: Int64(row)) &* 0xC2B2_AE3D_27D4_EB4F
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        let unit = 1 / Double(1 << 24)
        let fx = Double(z >> 40) * unit, fy = Double((z >> 16) & 0xFF_FFFF) * unit
        return ((fx * 2 - 1) * jitter, (fy * 2 - 1) * jitter)
    }

    func cell(atX x: Double, y: Double) -> Int? {
        let column = Int(((x - corner.x) / spacing).rounded(.down)) - firstColumn
        let row = Int(((y - corner.y) / spacing).rounded(.down)) - firstRow
        var best = 0, bestDistance = Double.infinity
        for j in (row - 1)...(row + 1) {
            for i in (column - 1)...(column + 1) {
                let index = j * columns + i, point = points[index]
                let dx = x - point.x, dy = y - point.y
                let distance = dx * dx + dy * dy
                if distance < bestDistance {
                    bestDistance = distance
                    best = index
                }
            }
        }
        if let discRadius, bestDistance > discRadius * discRadius { return nil }
        return best
    }
}
