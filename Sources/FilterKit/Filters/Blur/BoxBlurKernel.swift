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

    /// Box-blurs columns `columns` of `source` down into `destination` (same size, distinct
    /// memory), keeping one running sum per column in `columnSums` (indexed by column, at least
    /// `source.width` long): column bands may run at once on one `columnSums`.
    static func blurColumns(_ source: Plane, into destination: Plane, radius: Int, columns: Range<Int>,
                            columnSums: UnsafeMutablePointer<UInt32>) {
        guard !columns.isEmpty else { return }
        let start = columns.lowerBound, width = columns.count, height = source.height
        guard radius > 0 else {
            for y in 0..<height { (destination.row(y) + start).update(from: source.row(y) + start, count: width) }
            return
        }
        let reciprocal = 1 / Double(2 &* radius &+ 1), last = height &- 1, sums = columnSums + start
        sums.update(repeating: 0, count: width)
        for i in -radius...radius {
            let row = source.row(min(max(i, 0), last)) + start
            for x in 0..<width { sums[x] &+= UInt32(row[x]) }
        }
        for y in 0..<height {
            let output = destination.row(y) + start
            let entering = source.row(min(y &+ radius &+ 1, last)) + start
            let leaving = source.row(max(y &- radius, 0)) + start
            for x in 0..<width {
                let sum = sums[x]
                output[x] = roundedQuotient(sum, reciprocal: reciprocal)
                sums[x] = sum &+ UInt32(entering[x]) &- UInt32(leaving[x])
            }
        }
    }
}

/// Box blurs stacked on one another: one box of radius `r` is a box blur, three of Kovesi's
/// sizes approximate a Gaussian (``GaussianBlurFilter/boxRadii(sigma:)``). Radii of 0 (a box
/// of one sample, which changes nothing) are left out.
struct BoxStack: Equatable {
    /// The radii of the boxes, each at least 1.
    let radii: [Int]
    /// The product of the box widths: what the horizontal sums of one row are divided by.
    let divisor: Int

    /// The horizontal sums of 8-bit samples must fit in 32 bits: `255 · divisor < 2^32` — three
    /// boxes of radius ≤ 120 (``GaussianBlurFilter/maximumSigma``), one box of any radius a frame
    /// of up to 65,535 lines gives. The divisor is odd.
    init(_ radii: Int...) {
        precondition(radii.allSatisfy { $0 >= 0 }, "box radii are not negative")
        self.radii = radii.filter { $0 > 0 }
        divisor = self.radii.reduce(1) { $0 * (2 * $1 + 1) }
        precondition(255 * divisor <= Int(UInt32.max), "box stack too wide for 32-bit sums")
    }

    /// A stack that changes nothing.
    var isIdentity: Bool { radii.isEmpty }
}

/// Scratch memory for the blur filters, sized for the luma plane either way round (chroma
/// planes and transposed planes use a corner of it) and reallocated only when the frame size or
/// the number of parts grows.
final class BlurScratch {
    private var size = (width: 0, height: 0)
    private var parts = 0
    /// Two planes' worth of samples, row sums for each part (``rowSums(part:)``), and one running
    /// sum per column.
    private var first: UnsafeMutablePointer<UInt8>?
    private var second: UnsafeMutablePointer<UInt8>?
    private var rows: UnsafeMutablePointer<UInt32>?
    private(set) var columnSums: UnsafeMutablePointer<UInt32>?

    init() {}

    deinit { release() }

    private func release() {
        first?.deallocate()
        second?.deallocate()
        rows?.deallocate()
        columnSums?.deallocate()
    }

    /// Makes room for planes up to `width`×`height` worked on in `parts` parts.
    func prepare(width: Int, height: Int, parts: Int = 1) {
        guard size != (width, height) || parts > self.parts else { return }
        release()
        size = (width, height)
        self.parts = parts
        let capacity = max(Self.stride(width) * height, Self.stride(height) * width)
        first = .allocate(capacity: capacity)
        second = .allocate(capacity: capacity)
        rows = .allocate(capacity: parts * rowSumsPerPart)
        columnSums = .allocate(capacity: max(width, height))
    }

    /// Two rows of sums either way round, or the sums of one line family (see
    /// ``BoxBlurKernel/blurAlongLines(_:into:radius:slope:lineSums:rows:)``): at most
    /// `width + height` lines.
    private var rowSumsPerPart: Int { 2 * (size.width + size.height) }

    /// The row sums of part `part`, ``rowSumsPerPart`` of them.
    func rowSums(part: Int) -> UnsafeMutablePointer<UInt32> {
        precondition(part < parts, "scratch prepared for fewer parts")
        return rows! + part * rowSumsPerPart
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

    /// The horizontal pass of `stack` over rows `rows` of `plane`, into scratch plane 0: each row
    /// goes through every box while it is in cache (32-bit sums, one rounding at the end).
    func blurRows(_ plane: Plane, with stack: BoxStack, rows: Range<Int>, part: Int) {
        guard let firstRadius = stack.radii.first else { return }
        let output = self.plane(0, like: plane), width = plane.width
        var sums = rowSums(part: part), spare = sums + width
        for y in rows {
            BoxBlurKernel.boxSums(UnsafePointer(plane.row(y)), into: sums, count: width, radius: firstRadius)
            for radius in stack.radii.dropFirst() {
                BoxBlurKernel.boxSums(UnsafePointer(sums), into: spare, count: width, radius: radius)
                swap(&sums, &spare)
            }
            BoxBlurKernel.divide(sums, by: stack.divisor, into: output.row(y), count: width)
        }
    }

    /// The vertical pass of `stack` over columns `columns`, from scratch plane 0 (the horizontal
    /// pass's output) back into `plane`: one running sum down the columns per box, each rounding
    /// to 8 bits, between the two scratch planes.
    func blurColumns(_ plane: Plane, with stack: BoxStack, columns: Range<Int>) {
        let a = self.plane(0, like: plane), b = self.plane(1, like: plane), last = stack.radii.count - 1
        for (index, radius) in stack.radii.enumerated() {
            let source = index % 2 == 0 ? a : b, destination = index == last ? plane : (index % 2 == 0 ? b : a)
            BoxBlurKernel.blurColumns(source, into: destination, radius: radius, columns: columns,
                                      columnSums: columnSums!)
        }
    }

    /// `stack` over the whole of `plane`, in place, as one part (prepared for its size).
    func blur(_ plane: Plane, with stack: BoxStack) {
        blurRows(plane, with: stack, rows: 0..<plane.height, part: 0)
        blurColumns(plane, with: stack, columns: 0..<plane.width)
    }
}
