/// A ``CubeLUT`` applied to one colour: RGB (0…255 each) into the LUT's domain, tetrahedral
/// interpolation, clamped back to 0…255; or a full-range BT.601 YCbCr colour through JFIF's
/// conversion both ways (what ``LUTTable`` tabulates). A plain value: any thread.
struct LUTGrade {
    let lut: CubeLUT
    let low: [Float]
    let span: [Float]

    init(_ lut: CubeLUT) {
        self.lut = lut
        low = lut.domainMin
        span = (0..<3).map { lut.domainMax[$0] - lut.domainMin[$0] }
    }

    /// The graded colour of `(red, green, blue)` (0…255 each, clamped), 0…255, unrounded.
    func rgb(_ red: Float, _ green: Float, _ blue: Float) -> (Float, Float, Float) {
        let (r, g, b) = lut.tetrahedral((Self.unit(red) - low[0]) / span[0], (Self.unit(green) - low[1]) / span[1],
                                        (Self.unit(blue) - low[2]) / span[2])
        return (Self.clamp(r) * 255, Self.clamp(g) * 255, Self.clamp(b) * 255)
    }

    /// The graded colour, unrounded.
    func yuv(_ y: Float, _ cb: Float, _ cr: Float) -> (Float, Float, Float) {
        let u = cb - 128, v = cr - 128
        // JFIF's YCbCr → RGB, clamped as a decoder does (in `rgb`), then into the LUT's domain.
        let (rr, gg, bb) = rgb(y + 1.402 * v, y - 0.344136 * u - 0.714136 * v, y + 1.772 * u)
        return Self.ycbcr(rr, gg, bb)
    }

    /// JFIF's RGB → YCbCr (full-range BT.601), unrounded.
    static func ycbcr(_ r: Float, _ g: Float, _ b: Float) -> (Float, Float, Float) {
        (0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
    }

    private static func unit(_ value: Float) -> Float { clamp(value / 255) }
    private static func clamp(_ value: Float) -> Float { min(max(value, 0), 1) }
}
