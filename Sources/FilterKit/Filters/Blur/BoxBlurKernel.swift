/// Separable box-blur passes shared by the blur filters: running sums whose cost does not
/// depend on the radius, with samples outside the plane clamped to the nearest edge sample.
///
/// A box of radius `r` averages the `2r + 1` samples centred on each one. The horizontal and the
/// vertical pass each round their mean to 8 bits, so a box blur is within ±1 of the exact
/// rounded 2-D mean.
struct BoxBlurKernel {
    /// `n / divisor` rounded to nearest, given `reciprocal` = 1 / divisor for an odd divisor
    /// and n ≤ 255 · divisor < 2^32 (a sum of 8-bit samples).
    ///
    /// Branch-free and vectorisable: `n` becomes a `Double` by setting it as the low mantissa
    /// bits of 2^52 and subtracting 2^52; adding 2^52 back to the quotient rounds it to the
    /// nearest integer in the low mantissa bits. An odd divisor leaves no quotient on a tie
    /// (every one is at least 1/(2·divisor) away from one), far beyond the product's error.
    @inline(__always)
    static func roundedQuotient(_ n: UInt32, reciprocal: Double) -> UInt8 {
        let magic = 0x1p52
        let value = Double(bitPattern: magic.bitPattern | UInt64(n)) - magic
        return UInt8(truncatingIfNeeded: (value * reciprocal + magic).bitPattern)
    }

    /// Running sums of the `2·radius + 1` samples centred on each of `count` samples of
    /// `source` (indices clamped to the row), into `sums`. The inner loop has no clamping; only
    /// the `radius` samples at each end (or a row shorter than the window) need it.
    @inline(__always)
    static func boxSums<Sample: FixedWidthInteger & UnsignedInteger>(
        _ source: UnsafePointer<Sample>, into sums: UnsafeMutablePointer<UInt32>, count: Int, radius: Int
    ) {
        let last = count &- 1
        @inline(__always) func at(_ i: Int) -> UInt32 { UInt32(truncatingIfNeeded: source[min(max(i, 0), last)]) }
        var sum: UInt32 = 0
        for i in -radius...radius { sum &+= at(i) }
        guard count >= 2 &* radius &+ 2 else {
            for x in 0..<count {
                sums[x] = sum
                sum = sum &+ at(x &+ radius &+ 1) &- at(x &- radius)
            }
            return
        }
        let first = UInt32(truncatingIfNeeded: source[0]), final = UInt32(truncatingIfNeeded: source[last])
        for x in 0..<radius {
            sums[x] = sum
            sum = sum &+ UInt32(truncatingIfNeeded: source[x &+ radius &+ 1]) &- first
        }
        for x in radius..<(count &- radius &- 1) {
            sums[x] = sum
            sum = sum &+ UInt32(truncatingIfNeeded: source[x &+ radius &+ 1])
                &- UInt32(truncatingIfNeeded: source[x &- radius])
        }
        for x in (count &- radius &- 1)..<count {
            sums[x] = sum
            sum = sum &+ final &- UInt32(truncatingIfNeeded: source[x &- radius])
        }
    }

    /// `sums[x] / divisor`, rounded to nearest, into `destination`, for an odd `divisor` and
    /// sums of at most `divisor` 8-bit samples.
    static func divide(_ sums: UnsafePointer<UInt32>, by divisor: Int, into destination: UnsafeMutablePointer<UInt8>,
                       count: Int) {
        let reciprocal = 1 / Double(divisor)
        for x in 0..<count { destination[x] = roundedQuotient(sums[x], reciprocal: reciprocal) }
    }

    /// Box-blurs `source` down its columns into `destination` (same size, distinct memory),
    /// keeping one running sum per column in `columnSums` (at least `source.width` long).
    static func blurColumns(_ source: Plane, into destination: Plane, radius: Int,
                            columnSums: UnsafeMutablePointer<UInt32>) {
        let width = source.width, height = source.height
        guard radius > 0 else {
            destination.copy(from: source)
            return
        }
        let reciprocal = 1 / Double(2 &* radius &+ 1), last = height &- 1
        columnSums.update(repeating: 0, count: width)
        for i in -radius...radius {
            let row = source.row(min(max(i, 0), last))
            for x in 0..<width { columnSums[x] &+= UInt32(row[x]) }
        }
        for y in 0..<height {
            let output = destination.row(y)
            let entering = source.row(min(y &+ radius &+ 1, last))
            let leaving = source.row(max(y &- radius, 0))
            for x in 0..<width {
                let sum = columnSums[x]
                output[x] = roundedQuotient(sum, reciprocal: reciprocal)
                columnSums[x] = sum &+ UInt32(entering[x]) &- UInt32(leaving[x])
            }
        }
    }
}

/// Scratch memory for the blur filters, sized for the luma plane either way round (chroma
/// planes and transposed planes use a corner of it) and reallocated only when the frame size
/// changes.
final class BlurScratch {
    private var size = (width: 0, height: 0)
    /// Two planes' worth of samples, sums for two rows (or for one line family, see
    /// ``BoxBlurKernel/blurAlongLines(_:into:radius:slope:lineSums:rows:)``), and one running sum per column.
    private var first: UnsafeMutablePointer<UInt8>?
    private var second: UnsafeMutablePointer<UInt8>?
    private(set) var rows: UnsafeMutablePointer<UInt32>?
    private(set) var columnSums: UnsafeMutablePointer<UInt32>?

    init() {}

    deinit { release() }

    private func release() {
        first?.deallocate()
        second?.deallocate()
        rows?.deallocate()
        columnSums?.deallocate()
    }

    /// Makes room for planes up to `width`×`height`.
    func prepare(width: Int, height: Int) {
        guard size != (width, height) else { return }
        release()
        size = (width, height)
        let capacity = max(Self.stride(width) * height, Self.stride(height) * width)
        first = .allocate(capacity: capacity)
        second = .allocate(capacity: capacity)
        rows = .allocate(capacity: 2 * (width + height))
        columnSums = .allocate(capacity: max(width, height))
    }

    /// Rows padded to whole cache lines.
    private static func stride(_ width: Int) -> Int { (width + 63) / 64 * 64 }

    /// A scratch plane (0 or 1) of `width`×`height`, no larger than the prepared size either way round.
    func plane(_ index: Int, width: Int, height: Int) -> Plane {
        precondition((width <= size.width && height <= size.height) || (width <= size.height && height <= size.width),
                     "scratch plane larger than prepared")
        return Plane(base: index == 0 ? first! : second!, width: width, height: height, stride: Self.stride(width))
    }

    /// A scratch plane (0 or 1) with the geometry of `plane`.
    func plane(_ index: Int, like plane: Plane) -> Plane {
        self.plane(index, width: plane.width, height: plane.height)
    }

    /// A box blur of `plane` in place, horizontal pass into scratch plane 0, vertical pass back.
    func boxBlur(_ plane: Plane, radius: Int) {
        guard radius > 0 else { return }
        let scratch = self.plane(0, like: plane), width = plane.width, sums = rows!
        for y in 0..<plane.height {
            BoxBlurKernel.boxSums(UnsafePointer(plane.row(y)), into: sums, count: width, radius: radius)
            BoxBlurKernel.divide(sums, by: 2 &* radius &+ 1, into: scratch.row(y), count: width)
        }
        BoxBlurKernel.blurColumns(scratch, into: plane, radius: radius, columnSums: columnSums!)
    }

    /// Three stacked box blurs of `plane` in place with the given radii: each row goes through
    /// the three horizontal passes while it is in cache (32-bit sums, one rounding at the end),
    /// then the three vertical passes follow (each rounding to 8 bits).
    func stackedBoxBlur(_ plane: Plane, radii: (Int, Int, Int)) {
        guard radii != (0, 0, 0) else { return }
        let a = self.plane(0, like: plane), b = self.plane(1, like: plane)
        let width = plane.width, row1 = rows!, row2 = rows! + width
        // Box radii are at most 120 (GaussianBlurFilter.maximumSigma): sums below 255 · 241³ < 2^32,
        // an odd divisor.
        let divisor = (2 &* radii.0 &+ 1) &* (2 &* radii.1 &+ 1) &* (2 &* radii.2 &+ 1)
        for y in 0..<plane.height {
            BoxBlurKernel.boxSums(UnsafePointer(plane.row(y)), into: row1, count: width, radius: radii.0)
            BoxBlurKernel.boxSums(UnsafePointer(row1), into: row2, count: width, radius: radii.1)
            BoxBlurKernel.boxSums(UnsafePointer(row2), into: row1, count: width, radius: radii.2)
            BoxBlurKernel.divide(row1, by: divisor, into: a.row(y), count: width)
        }
        let sums = columnSums!
        BoxBlurKernel.blurColumns(a, into: b, radius: radii.0, columnSums: sums)
        BoxBlurKernel.blurColumns(b, into: a, radius: radii.1, columnSums: sums)
        BoxBlurKernel.blurColumns(a, into: plane, radius: radii.2, columnSums: sums)
    }
}
