/// Box blurs along slanted lines (motion blur), on running sums whose cost does not depend on
/// the radius.
extension BoxBlurKernel {
    /// The column offset of row `row` on the line through (0, 0) with `slope` columns per row.
    @inline(__always)
    static func shift(row: Int, slope: Double) -> Int { Int((Double(row) * slope).rounded()) }

    /// Box-blurs `source` into `destination` (same size, distinct memory) along the family of
    /// digital lines `x = x0 + shift(y)` (|`slope`| ≤ 1 column per row, so near-vertical): each
    /// sample of rows `rows` becomes the mean of the `2·radius + 1` samples of its line in rows
    /// `y − radius … y + radius`, coordinates outside the plane clamped to the nearest edge sample.
    ///
    /// One running sum per line that crosses `rows` (at most `width + height` of them, in
    /// `lineSums`), kept row by row: each output row is one shifted read of the sums; the next
    /// adds the entering row and subtracts the leaving one, each a shifted, vectorised pass.
    /// A band of rows can be computed on its own (it starts its sums afresh).
    static func blurAlongLines(_ source: Plane, into destination: Plane, radius: Int, slope: Double,
                               lineSums: UnsafeMutablePointer<UInt32>, rows: Range<Int>) {
        guard !rows.isEmpty else { return }
        let width = source.width, last = source.height &- 1
        let top = shift(row: rows.lowerBound, slope: slope), bottom = shift(row: rows.upperBound &- 1, slope: slope)
        // Lines x0 = x − shift(y) for the band's pixels; line x0 is at lineSums[x0 + maxShift].
        let maxShift = Swift.max(top, bottom), count = width &+ maxShift &- Swift.min(top, bottom)
        @inline(__always) func accumulate(row j: Int, _ combine: (UInt32, UInt32) -> UInt32) {
            let samples = source.row(Swift.min(Swift.max(j, 0), last))
            // Line i of the sums meets row j at column i + offset, clamped to the row.
            let offset = shift(row: j, slope: slope) &- maxShift
            let lower = Swift.min(Swift.max(-offset, 0), count), upper = Swift.min(Swift.max(width &- offset, lower), count)
            let first = UInt32(samples[0]), final = UInt32(samples[width &- 1])
            for i in 0..<lower { lineSums[i] = combine(lineSums[i], first) }
            for i in lower..<upper { lineSums[i] = combine(lineSums[i], UInt32(samples[i &+ offset])) }
            for i in upper..<count { lineSums[i] = combine(lineSums[i], final) }
        }
        lineSums.update(repeating: 0, count: count)
        for j in (rows.lowerBound &- radius)...(rows.lowerBound &+ radius) { accumulate(row: j) { $0 &+ $1 } }
        let divisor = 2 &* radius &+ 1
        for y in rows {
            let sums = lineSums + (maxShift &- shift(row: y, slope: slope))
            divide(sums, by: divisor, into: destination.row(y), count: width)
            guard y &+ 1 < rows.upperBound else { break }
            accumulate(row: y &+ radius &+ 1) { $0 &+ $1 }
            accumulate(row: y &- radius) { $0 &- $1 }
        }
    }
}
