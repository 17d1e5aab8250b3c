extension RemapTable {
    /// Copies the table's source region of `plane` into `scratch` (``scratchCount`` bytes, rows
    /// ``sourceColumns``.count apart), repeating the last column and row where the region runs
    /// one past the plane's edge.
    func copySource(of plane: Plane, into scratch: UnsafeMutablePointer<UInt8>) {
        let stride = sourceColumns.count
        guard stride > 0 else { return }
        let inside = Swift.min(stride, plane.width &- sourceColumns.lowerBound)
        for (i, y) in sourceRows.enumerated() {
            let source = plane.row(Swift.min(y, plane.height &- 1)) + sourceColumns.lowerBound
            let destination = scratch + i &* stride
            destination.update(from: source, count: inside)
            if inside < stride { destination[inside] = source[inside &- 1] }
        }
    }

    /// Writes the output rows `rows` (plane rows; those the table does not change are skipped)
    /// of `plane` from `scratch`, which holds the plane's source region (``copySource(of:into:)``).
    func remap(rows: Range<Int>, of plane: Plane, from scratch: UnsafePointer<UInt8>) {
        let stride = sourceColumns.count
        forEachSpan(in: rows) { y, x, count, offsets, weights in
            let output = plane.row(y) + x
            for i in 0..<count {
                output[i] = Self.bilinear(scratch + Int(offsets[i]), stride: stride, weights: weights[i])
            }
        }
    }

    /// ``remap(rows:of:from:)`` for two planes of the same size at once (U and V), reading the
    /// table once for both.
    func remap(rows: Range<Int>, of first: Plane, from firstScratch: UnsafePointer<UInt8>,
               and second: Plane, from secondScratch: UnsafePointer<UInt8>) {
        let stride = sourceColumns.count
        forEachSpan(in: rows) { y, x, count, offsets, weights in
            let firstOutput = first.row(y) + x, secondOutput = second.row(y) + x
            for i in 0..<count {
                let offset = Int(offsets[i]), weight = weights[i]
                firstOutput[i] = Self.bilinear(firstScratch + offset, stride: stride, weights: weight)
                secondOutput[i] = Self.bilinear(secondScratch + offset, stride: stride, weights: weight)
            }
        }
    }

    /// Calls `body` with each changed row of `rows`: its plane row, first column, number of
    /// samples and their offsets and weights.
    @inline(__always)
    private func forEachSpan(in rows: Range<Int>, _ body: (_ y: Int, _ x: Int, _ count: Int, _ offsets: UnsafePointer<UInt32>,
                                                         _ weights: UnsafePointer<UInt16>) -> Void) {
        // The band may lie wholly above or below the changed rows.
        let top = Swift.max(rows.lowerBound, firstRow), bottom = Swift.min(rows.upperBound, firstRow &+ spans.count)
        guard top < bottom else { return }
        let band = top..<bottom
        spans.withUnsafeBufferPointer { spans in
            offsets.withUnsafeBufferPointer { offsets in
                weights.withUnsafeBufferPointer { weights in
                    for y in band {
                        let span = spans[y &- firstRow]
                        let first = Int(span.first)
                        body(y, Int(span.x), Int(span.count), offsets.baseAddress! + first, weights.baseAddress! + first)
                    }
                }
            }
        }
    }

    /// The 2×2 neighbourhood at `source` (rows `stride` apart) weighted by Q8 weights (horizontal
    /// in the low byte, vertical in the high byte), rounded to nearest. Exact at zero weights.
    @inline(__always)
    static func bilinear(_ source: UnsafePointer<UInt8>, stride: Int, weights: UInt16) -> UInt8 {
        let fx = Int32(weights & 0xFF), fy = Int32(weights &>> 8)
        // Two 16-bit loads (little-endian: left sample in the low byte) rather than four.
        let upper = UnsafeRawPointer(source).loadUnaligned(as: UInt16.self)
        let lower = UnsafeRawPointer(source + stride).loadUnaligned(as: UInt16.self)
        let a = Int32(upper & 0xFF), b = Int32(upper &>> 8), c = Int32(lower & 0xFF), d = Int32(lower &>> 8)
        let top = (a &<< 8) &+ (b &- a) &* fx
        let bottom = (c &<< 8) &+ (d &- c) &* fx
        let value = ((top &<< 8) &+ (bottom &- top) &* fy &+ 0x8000) &>> 16
        return UInt8(truncatingIfNeeded: value)
    }
}
