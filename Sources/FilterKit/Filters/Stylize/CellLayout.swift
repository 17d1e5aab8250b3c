/// How a cell filter divides the picture into cells: which cell a point belongs to.
///
/// Asked once per sample when the cell maps are built (see ``CellRuns``), never per frame, so it
/// may use floating point freely. Must be deterministic: the same point, the same cell.
protocol CellLayout {
    /// Cells are numbered `0..<cellCount`.
    var cellCount: Int { get }

    /// The cell holding the point (`x`, `y`) in luma pixel coordinates (pixel centres at
    /// integer + 0.5), or nil when the point lies on the background between cells.
    func cell(atX x: Double, y: Double) -> Int?
}
