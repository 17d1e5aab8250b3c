/// CISepiaTone: maps colours to a warm brown tone; `intensity` blends from the original (0) to
/// full sepia (1).
///
/// Sepia's RGB matrix (the classic .393/.769/.189 rows) is within 1% of a function of luma
/// alone, so on YUV planes it needs no RGB round trip: luma maps through the tone curve, and each
/// chroma sample is set from the mean luma of its 2×2 block. Clipped in RGB, the curve is
/// piecewise linear — `a·Y + b·min(Y, redKnee) + c·min(Y, greenKnee)` — so both passes are
/// 16-bit fixed-point arithmetic that the compiler vectorises (even with baseline SSE2), with
/// the blend folded into the coefficients.
public final class SepiaFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "sepia", label: "Sepia", category: .colorEffect,
        params: [ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: 0, max: 1,
                                     step: 0.01, identity: 0)])

    /// Sepia rows (R, G, B) applied to a grey level: each channel is `gain × Y`, clipped at 255.
    static let gains = (r: 0.393 + 0.769 + 0.189, g: 0.349 + 0.686 + 0.168, b: 0.272 + 0.534 + 0.131)
    /// Luma above which red, then green, clip.
    static let redKnee = UInt16((255 / gains.r).rounded())
    static let greenKnee = UInt16((255 / gains.g).rounded())

    private let luma: Curve
    private let cb: Curve
    private let cr: Curve

    /// `own·keep + m·linear + min(m, redKnee)·red + min(m, greenKnee)·green + offset`, where `own`
    /// is the sample itself and `m` the luma it follows. Coefficients are magnitudes with 16
    /// fraction bits and a sign; sums are taken modulo 2¹⁶ with 8 fraction bits, which is exact
    /// because every result lies in 0…255.
    struct Curve {
        struct Term {
            let magnitude: UInt16
            let negative: Bool
            init(_ value: Double) {
                magnitude = UInt16(min(65535, (abs(value) * 65536).rounded()))
                negative = value < 0
            }
        }
        let keep: Term, linear: Term, red: Term, green: Term
        /// offset × 256, plus ½ for rounding.
        let offset: UInt16

        init(keep: Double, linear: Double, red: Double, green: Double, offset: Double) {
            self.keep = Term(keep)
            self.linear = Term(linear)
            self.red = Term(red)
            self.green = Term(green)
            self.offset = UInt16((offset * 256).rounded()) &+ 128
        }

        @inline(__always)
        func apply(_ own: UInt8, _ mean: UInt8) -> UInt8 {
            let own = UInt16(own) &<< 8, mean16 = UInt16(mean)
            let m = mean16 &<< 8
            let r = min(mean16, SepiaFilter.redKnee) &<< 8, g = min(mean16, SepiaFilter.greenKnee) &<< 8
            var sum = offset
            sum = add(sum, own, keep)
            sum = add(sum, m, linear)
            sum = add(sum, r, red)
            sum = add(sum, g, green)
            return UInt8(truncatingIfNeeded: sum &>> 8)
        }

        @inline(__always)
        private func add(_ sum: UInt16, _ value: UInt16, _ term: Term) -> UInt16 {
            let product = UInt16(truncatingIfNeeded: (UInt32(value) &* UInt32(term.magnitude)) &>> 16)
            return term.negative ? sum &- product : sum &+ product
        }
    }

    public init(settings: FilterSettings) {
        let i = settings["intensity"]
        let (kr, kg, kb) = (0.299, 0.587, 0.114)
        // Full sepia luma: kr·gr·min(Y, redKnee) + kg·gg·min(Y, greenKnee) + kb·gb·Y.
        let red = kr * Self.gains.r, green = kg * Self.gains.g, blue = kb * Self.gains.b
        luma = Curve(keep: 1 - i + i * blue, linear: 0, red: i * red, green: i * green, offset: 0)
        // Cb = 128 + (B − Y′)/1.772 and Cr = 128 + (R − Y′)/1.402, with B = gb·Y, R = gr·min(Y, redKnee).
        cb = Curve(keep: 1 - i, linear: i * (Self.gains.b - blue) / 1.772, red: -i * red / 1.772,
                   green: -i * green / 1.772, offset: i * 128)
        cr = Curve(keep: 1 - i, linear: -i * blue / 1.402, red: i * (Self.gains.r - red) / 1.402,
                   green: -i * green / 1.402, offset: i * 128)
    }

    public func apply(to frame: Frame) {
        let width = frame.width, height = frame.height, chromaWidth = frame.u.width
        let luma = luma, cb = cb, cr = cr
        for cy in 0..<frame.u.height {
            let y0 = 2 &* cy, y1 = y0 &+ 1 < height ? y0 &+ 1 : y0
            let row0 = frame.y.row(y0), row1 = frame.y.row(y1)
            let cbRow = frame.u.row(cy), crRow = frame.v.row(cy)
            // Chroma first: it needs the block's original luma. Whole blocks, then the last
            // column of an odd width (kept out of the main loop so that it vectorises).
            @inline(__always) func block(_ cx: Int, _ x0: Int, _ x1: Int) {
                let sum = UInt16(row0[x0]) &+ UInt16(row0[x1]) &+ UInt16(row1[x0]) &+ UInt16(row1[x1])
                let mean = UInt8(truncatingIfNeeded: (sum &+ 2) &>> 2)
                cbRow[cx] = cb.apply(cbRow[cx], mean)
                crRow[cx] = cr.apply(crRow[cx], mean)
            }
            for cx in 0..<(width &>> 1) { block(cx, 2 &* cx, 2 &* cx &+ 1) }
            if chromaWidth > width &>> 1 { block(chromaWidth &- 1, width &- 1, width &- 1) }
            for x in 0..<width { row0[x] = luma.apply(row0[x], row0[x]) }
            if y1 != y0 {
                for x in 0..<width { row1[x] = luma.apply(row1[x], row1[x]) }
            }
        }
    }
}
