/// CIComicEffect-like: posterized, slightly punchier colours with dark ink on the edges.
///
/// Luma is quantised to `levels` flat tones; where the Sobel gradient of the original luma
/// exceeds `edgeThreshold` (1 = a full black-to-white step) the pixel is inked black. Two passes
/// by bands of rows: a copy of the luma, then the chroma boost, the tones and the ink.
public final class ComicFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "comic", label: "Comic", category: .stylize,
        params: [
            ParameterDescriptor(name: "levels", label: "Tones", type: .integer, default: 5, min: 2, max: 16, step: 1),
            ParameterDescriptor(name: "edgeThreshold", label: "Ink threshold", default: 0.2, min: 0.02, max: 2,
                                sliderMax: 1, step: 0.01),
        ])

    /// Sobel |gx| + |gy| above which a pixel is inked.
    private let inkThreshold: Int
    private let toneTable: [UInt8]
    private let chromaTable: [UInt8]
    /// The gradient must not see inked pixels.
    private let original = LumaCopy()

    public init(settings: FilterSettings) {
        let levels = Int(settings["levels"])
        inkThreshold = Int((settings["edgeThreshold"] * 4 * 255).rounded())
        toneTable = (0..<256).map { UInt8($0 * levels / 256 * 255 / (levels - 1)) }
        chromaTable = (0..<256).map { UInt8(min(255, max(0, 128 + ($0 - 128) * 5 / 4))) }
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        original.prepare(for: frame)
        return LumaCopy.passes
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        guard let rows = original.rowsToCompute(pass: pass, part: part, of: parts, in: frame) else { return }
        let chromaRows = Partition.chromaRows(under: rows)
        ColorEffectTables.map(frame.u.rows(chromaRows), through: chromaTable)
        ColorEffectTables.map(frame.v.rows(chromaRows), through: chromaTable)
        ink(frame.y, rows: rows)
    }

    /// Tones and ink for rows `rows` of `luma`, from the copy of the original.
    private func ink(_ luma: Plane, rows: Range<Int>) {
        let original = original.plane, width = luma.width, height = luma.height, threshold = inkThreshold
        toneTable.withUnsafeBufferPointer { toneTable in
            for y in rows {
                let output = luma.row(y), middle = original.row(y)
                guard y > 0, y < height &- 1, width > 2 else {
                    for x in 0..<width { output[x] = toneTable[Int(middle[x])] }
                    continue
                }
                let above = original.row(y &- 1), below = original.row(y &+ 1)
                output[0] = toneTable[Int(middle[0])]
                output[width &- 1] = toneTable[Int(middle[width &- 1])]
                for x in 1..<(width &- 1) {
                    let l = x &- 1, r = x &+ 1
                    let gx = (Int(above[r]) &+ 2 &* Int(middle[r]) &+ Int(below[r]))
                        &- (Int(above[l]) &+ 2 &* Int(middle[l]) &+ Int(below[l]))
                    let gy = (Int(below[l]) &+ 2 &* Int(below[x]) &+ Int(below[r]))
                        &- (Int(above[l]) &+ 2 &* Int(above[x]) &+ Int(above[r]))
                    output[x] = abs(gx) &+ abs(gy) > threshold ? 0 : toneTable[Int(middle[x])]
                }
            }
        }
    }
}
