/// The unsharp-mask machinery shared by ``UnsharpMaskFilter`` and ``SharpenFilter``:
/// `y' = y + amount × (y − blur(y))` on luma only, clamped; chroma is left untouched.
///
/// The blur is one separable box blur whose variance matches a Gaussian of standard deviation
/// `radius` (in pixels at 1080p, scaled with the frame height; at least a 3×3 box when
/// `radius > 0`), with edges replicated. It runs on running sums, so its cost does not depend on
/// the radius: per row, column sums are updated by one entering and one leaving row (a vectorised
/// add), then a horizontal running sum gives the box sum. Two passes by bands of rows: the
/// original luma is copied into a scratch plane, then each band starts its column sums afresh
/// from the copy. Scratch buffers are allocated once per frame size and number of parts.
final class LumaSharpener {
    let radius: Double
    let amount: Float

    private let original = LumaCopy()
    private var size = (width: 0, height: 0)
    private var boxRadius = 0
    private var parts = 0
    /// Per part: column sums, with `boxRadius` replicated samples padded on each side.
    private var columnSums: UnsafeMutableBufferPointer<UInt32> = .init(start: nil, count: 0)
    /// Per part: the box sums of the current row (at most 255 × 347², so signed, which converts faster).
    private var boxSums: UnsafeMutableBufferPointer<Int32> = .init(start: nil, count: 0)

    init(radius: Double, amount: Double) {
        self.radius = radius
        self.amount = Float(amount)
    }

    deinit {
        columnSums.deallocate()
        boxSums.deallocate()
    }

    /// The box radius whose (2r+1)-wide box has about the variance of a Gaussian of `sigma`.
    static func boxRadius(sigma: Double) -> Int {
        guard sigma > 0 else { return 0 }
        return max(1, Int((((12 * sigma * sigma + 1).squareRoot() - 1) / 2).rounded()))
    }

    /// Column sums per part: the width and `boxRadius` samples of padding on each side.
    private var columnSumsPerPart: Int { size.width &+ 2 &* boxRadius }

    func preparePasses(for frame: Frame, parts: Int) -> Int {
        guard amount != 0, radius > 0 else { return 0 }
        let width = frame.width, height = frame.height
        original.prepare(for: frame)
        if size != (width, height) || parts > self.parts {
            size = (width, height)
            boxRadius = Self.boxRadius(sigma: frame.pixels(fromReference: radius))
            self.parts = parts
            columnSums.deallocate()
            boxSums.deallocate()
            columnSums = .allocate(capacity: parts &* columnSumsPerPart)
            boxSums = .allocate(capacity: parts &* width)
        }
        return LumaCopy.passes
    }

    func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        guard let rows = original.rowsToCompute(pass: pass, part: part, of: parts, in: frame) else { return }
        sharpen(frame.y, rows: rows, part: part)
    }

    /// Rows `rows` of `luma`, from the copy of the original.
    private func sharpen(_ luma: Plane, rows: Range<Int>, part: Int) {
        let original = original.plane, width = luma.width, last = luma.height &- 1
        let r = boxRadius, padded = columnSums.baseAddress! + part &* columnSumsPerPart, sums = padded + r
        let boxes = boxSums.baseAddress! + part &* width
        let area = Float((2 &* r &+ 1) &* (2 &* r &+ 1)), inverseArea = 1 / area, amount = amount

        // Column sums for the first row: rows first - r ... first + r, clamped.
        sums.update(repeating: 0, count: width)
        for j in (rows.lowerBound &- r)...(rows.lowerBound &+ r) {
            let source = original.row(Swift.min(Swift.max(j, 0), last))
            for x in 0..<width { sums[x] &+= UInt32(source[x]) }
        }
        for y in rows {
            if y > rows.lowerBound {
                let entering = original.row(Swift.min(y &+ r, last))
                let leaving = original.row(Swift.max(y &- r &- 1, 0))
                for x in 0..<width { sums[x] = sums[x] &+ UInt32(entering[x]) &- UInt32(leaving[x]) }
            }
            // Replicate the edge columns into the padding.
            padded.update(repeating: sums[0], count: r)
            (sums + width).update(repeating: sums[width &- 1], count: r)
            // Horizontal running sum over padded[x ... x + 2r].
            var sum: UInt32 = 0
            for i in 0..<(2 &* r) { sum &+= padded[i] }
            for x in 0..<width {
                sum &+= padded[x &+ 2 &* r]
                boxes[x] = Int32(bitPattern: sum)
                sum &-= padded[x]
            }
            let input = original.row(y), output = luma.row(y)
            for x in 0..<width {
                let value = Float(input[x])
                let blur = Float(boxes[x]) * inverseArea
                let sharpened = value + amount * (value - blur)
                output[x] = roundedSample(sharpened)
            }
        }
    }
}
