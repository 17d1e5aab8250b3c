/// One plane divided into cells, stored as runs: along each row, consecutive samples of the same
/// cell form one run. Built once per frame size from a ``CellLayout``; the per-frame passes walk
/// the runs (a sum or a fill per run) instead of looking a cell up per sample.
///
/// Cell `cellCount` of the layout, one past its last, stands for the background; its count is
/// kept at zero, so that ``mean(of:parts:stride:cells:into:)`` leaves the background's colour alone.
struct CellRuns {
    /// Where each row's runs start in `ends` and `cells`; `rowStarts[height]` is the run count.
    private(set) var rowStarts: [Int] = [0]
    /// The sample index one past each run's last sample.
    private(set) var ends: [Int32] = []
    /// The cell of each run.
    private(set) var cells: [UInt32] = []
    /// How many samples each cell covers (0 for the background, last).
    private(set) var counts: [UInt32] = []

    init() {}

    /// The runs of a plane of `columnCentres.count` × `rowCentres.count` samples, whose sample
    /// (x, y) stands for the luma point (`columnCentres[x]`, `rowCentres[y]`).
    ///
    /// A cell's samples along a row are consecutive (cells are convex; the background is not),
    /// so a cell's run is found by probing ahead in doubling steps and then bisecting: a few
    /// layout queries per run instead of one per sample. Background is walked sample by sample.
    init(layout: some CellLayout, columnCentres: [Double], rowCentres: [Double]) {
        let background = layout.cellCount, width = columnCentres.count
        counts = [UInt32](repeating: 0, count: background + 1)
        rowStarts.reserveCapacity(rowCentres.count + 1)
        var step = 1
        for y in rowCentres {
            func cell(_ x: Int) -> Int { layout.cell(atX: columnCentres[x], y: y) ?? background }
            var x = 0, previous = -1
            while x < width {
                let current = cell(x)
                var end = x + 1
                if current != background {
                    // Probe ahead (from half the last run's length) until outside the cell or
                    // past the row, then bisect between the last sample inside and the first outside.
                    var inside = x
                    end = width
                    while inside + step < width {
                        if cell(inside + step) != current {
                            end = inside + step
                            break
                        }
                        inside += step
                        step *= 2
                    }
                    while end - inside > 1 {
                        let middle = (inside + end) / 2
                        if cell(middle) == current { inside = middle } else { end = middle }
                    }
                    counts[current] += UInt32(end - x)
                    step = max(1, (end - x) / 2)
                }
                if current != previous {
                    if previous >= 0 { ends.append(Int32(x)) }
                    cells.append(UInt32(current))
                    previous = current
                }
                x = end
            }
            ends.append(Int32(width))
            rowStarts.append(ends.count)
        }
    }

    /// The centres of a plane's samples along one axis, in luma coordinates: `length` luma
    /// samples, each `subsampling` (1 or 2) luma samples wide, the last one cut at the edge.
    static func centres(lumaLength length: Int, subsampling: Int) -> [Double] {
        let count = (length + subsampling - 1) / subsampling
        return (0..<count).map { i in
            Double(i * subsampling) + Double(min(subsampling, length - i * subsampling)) / 2
        }
    }

    /// The sums of the samples of each cell in rows `rows` of `plane`, into `sums` (`counts.count`
    /// entries, zeroed first, also when `rows` is empty).
    func sum(_ plane: Plane, rows: Range<Int>, into sums: UnsafeMutablePointer<UInt32>) {
        sums.update(repeating: 0, count: counts.count)
        forEachRun(of: plane, rows: rows) { row, x, end, cell in
            var sum: UInt32 = 0
            for i in x..<end { sum &+= UInt32(row[i]) }
            sums[cell] &+= sum
        }
    }

    /// Sets `means[cell]`, for the cells `cells`, to the rounded mean of its samples: the total of
    /// `parts` partial sums made by ``sum(_:rows:into:)``, part `p`'s at `sums + p · stride`.
    /// Cells that cover no sample keep their value.
    func mean(of sums: UnsafePointer<UInt32>, parts: Int, stride: Int, cells range: Range<Int>,
              into means: UnsafeMutablePointer<UInt8>) {
        counts.withUnsafeBufferPointer { counts in
            for cell in range where counts[cell] != 0 {
                var total: UInt32 = 0
                for part in 0..<parts { total &+= sums[part &* stride &+ cell] }
                let count = counts[cell]
                means[cell] = UInt8(truncatingIfNeeded: (total &+ count &>> 1) / count)
            }
        }
    }

    /// Fills rows `rows` of `plane`, run by run, with `means` of the runs' cells.
    func paint(_ plane: Plane, rows: Range<Int>, from means: UnsafePointer<UInt8>) {
        forEachRun(of: plane, rows: rows) { row, x, end, cell in
            (row + x).update(repeating: means[cell], count: end &- x)
        }
    }

    /// Calls `body` for each run of rows `rows` of `plane`, row by row: the run covers samples
    /// `x..<end` of `row` and belongs to `cell`. Inlined: the pixel loops run inside `body`.
    @inline(__always)
    private func forEachRun(of plane: Plane, rows: Range<Int>,
                            _ body: (_ row: UnsafeMutablePointer<UInt8>, _ x: Int, _ end: Int, _ cell: Int) -> Void) {
        ends.withUnsafeBufferPointer { ends in
            cells.withUnsafeBufferPointer { cells in
                for y in rows {
                    let row = plane.row(y)
                    var x = 0
                    for run in rowStarts[y]..<rowStarts[y &+ 1] {
                        let end = Int(ends[run])
                        body(row, x, end, Int(cells[run]))
                        x = end
                    }
                }
            }
        }
    }
}
