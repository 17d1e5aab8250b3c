/// Regular hexagons (pointed at the top and bottom) tiling the plane: centres in rows
/// `spacing × √3/2` apart, `spacing` apart within a row, every other row shifted by half a
/// spacing, and one centre at `origin`. A point belongs to the nearest centre, so `spacing` is the
/// distance between neighbouring centres: the hexagon's width across its flat sides. A point
/// equally near two centres goes to the upper one, then the left one.
struct HexagonalLattice: CellLayout {
    let spacing: Double
    let rowHeight: Double
    let origin: (x: Double, y: Double)
    /// The rows and columns of centres that can be the nearest to a point of the frame.
    let firstRow: Int, firstColumn: Int, columns: Int
    let cellCount: Int

    /// The lattice over a `width`×`height` frame.
    init(spacing: Double, origin: (x: Double, y: Double), width: Int, height: Int) {
        precondition(spacing > 0, "hexagon spacing must be positive")
        self.spacing = spacing
        self.origin = origin
        rowHeight = spacing * 3.squareRoot() / 2
        // A point's nearest centre is in the row above or below it, within half a spacing.
        firstRow = Int(((0 - origin.y) / rowHeight).rounded(.down))
        let lastRow = Int((((Double(height) - origin.y) / rowHeight).rounded(.down))) + 1
        firstColumn = Int(((0 - origin.x) / spacing).rounded(.down)) - 1
        let lastColumn = Int(((Double(width) - origin.x) / spacing).rounded(.down)) + 1
        columns = lastColumn - firstColumn + 1
        cellCount = (lastRow - firstRow + 1) * columns
    }

    func cell(atX x: Double, y: Double) -> Int? {
        let above = Int(((y - origin.y) / rowHeight).rounded(.down))
        var best = 0, bestDistance = Double.infinity
        // Any centre two rows away is at least √3/2 spacing off vertically, farther than the
        // nearest centre of the two rows around the point (at most √7/4 spacing); in a row, the
        // nearest is one of the two around the point. Strictly nearer only: ties keep the first.
        for row in above...(above + 1) {
            let shift = row & 1 == 0 ? 0 : 0.5
            let left = ((x - origin.x) / spacing - shift).rounded(.down)
            for step in 0...1 {
                let column = left + Double(step)
                let dx = x - (origin.x + (column + shift) * spacing), dy = y - (origin.y + Double(row) * rowHeight)
                let distance = dx * dx + dy * dy
                if distance < bestDistance {
                    bestDistance = distance
                    best = (row - firstRow) * columns + (Int(column) - firstColumn)
                }
            }
        }
        return best
    }
}
