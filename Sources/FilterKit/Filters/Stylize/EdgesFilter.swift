/// CIEdges: the edges of the picture, in colour, on black. Luma becomes the Sobel gradient
/// of the original luma, `intensity × (|gx| + |gy|) / 4` clamped to 255 (so at intensity 1 a
/// black-to-white step is white); chroma keeps the picture's colour scaled by the edge strength
/// (`128 + (c − 128) × E / 256`, `E` the mean new luma over the chroma sample's 2×2 pixels), so
/// flat areas are black and strong edges show their colour. Samples outside the frame repeat
/// the edge ones. Intensity 0 gives a black frame. Two passes by bands of rows: a copy of the
/// luma, then the edges.
public final class EdgesFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "edges", label: "Edges", category: .stylize,
        params: [ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: 0, max: 10, step: 0.01)])

    public let intensity: Double
    /// intensity / 4 in Q12: the Sobel sum (at most 2040) times it fits in 32 bits up to intensity 10.
    private let gain: Int32
    /// The gradient must not see rewritten rows.
    private let original = LumaCopy()

    public init(settings: FilterSettings) {
        intensity = settings["intensity"]
        gain = Int32((intensity * 1024).rounded())
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        original.prepare(for: frame)
        return LumaCopy.passes
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        guard let rows = original.rowsToCompute(pass: pass, part: part, of: parts, in: frame) else { return }
        edges(frame, chromaRows: Partition.chromaRows(under: rows))
    }

    /// Chroma rows `chromaRows` and the luma rows they cover, after the luma was copied.
    private func edges(_ frame: Frame, chromaRows: Range<Int>) {
        let source = original.plane, luma = frame.y, height = luma.height
        for j in chromaRows {
            let top = 2 &* j, bottom = Swift.min(top &+ 1, height &- 1)
            for y in top...bottom { gradientRow(y, of: source, into: luma.row(y)) }
            let upper = luma.row(top), lower = luma.row(bottom)
            tint(frame.u.row(j), upper: upper, lower: lower, width: luma.width)
            tint(frame.v.row(j), upper: upper, lower: lower, width: luma.width)
        }
    }

    /// Row `y`'s scaled Sobel magnitude of `source` into `output`.
    private func gradientRow(_ y: Int, of source: Plane, into output: UnsafeMutablePointer<UInt8>) {
        let width = source.width, gain = gain
        let above = source.row(Swift.max(y &- 1, 0)), middle = source.row(y), below = source.row(Swift.min(y &+ 1, source.height &- 1))
        @inline(__always) func magnitude(_ l: Int, _ x: Int, _ r: Int) -> UInt8 {
            let gx = (Int32(above[r]) &+ 2 &* Int32(middle[r]) &+ Int32(below[r]))
                &- (Int32(above[l]) &+ 2 &* Int32(middle[l]) &+ Int32(below[l]))
            let gy = (Int32(below[l]) &+ 2 &* Int32(below[x]) &+ Int32(below[r]))
                &- (Int32(above[l]) &+ 2 &* Int32(above[x]) &+ Int32(above[r]))
            return UInt8(truncatingIfNeeded: Swift.min(((abs(gx) &+ abs(gy)) &* gain &+ 2048) &>> 12, 255))
        }
        let last = width &- 1
        output[0] = magnitude(0, 0, Swift.min(1, last))
        guard width > 1 else { return }
        for x in 1..<last { output[x] = magnitude(x &- 1, x, x &+ 1) }
        output[last] = magnitude(last &- 1, last, last)
    }

    /// Scales the colour of a chroma row by the mean new luma of the 2×2 pixels each sample covers
    /// (rows `upper` and `lower`, the same row at an odd bottom edge).
    private func tint(_ chroma: UnsafeMutablePointer<UInt8>, upper: UnsafeMutablePointer<UInt8>,
                      lower: UnsafeMutablePointer<UInt8>, width: Int) {
        @inline(__always) func scaled(_ i: Int, strength: Int32) {
            chroma[i] = UInt8(truncatingIfNeeded: 128 &+ (((Int32(chroma[i]) &- 128) &* strength &+ 128) &>> 8))
        }
        let pairs = width / 2
        for i in 0..<pairs {
            let x = 2 &* i
            scaled(i, strength: (Int32(upper[x]) &+ Int32(upper[x &+ 1]) &+ Int32(lower[x]) &+ Int32(lower[x &+ 1]) &+ 2) &>> 2)
        }
        if width & 1 == 1 {
            scaled(pairs, strength: (Int32(upper[width &- 1]) &+ Int32(lower[width &- 1]) &+ 1) &>> 1)
        }
    }
}
