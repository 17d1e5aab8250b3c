/// A ``CubeLUT`` as one table over the frame's own colour space (full-range BT.601 YUV), so that
/// applying it takes no per-pixel RGB round trip and a 2×2 block of pixels reads one row of it.
///
/// A row per node of a ``chromaNodes``² lattice of chroma pairs (every 2nd code of Cb and Cr; a
/// block takes its chroma sample's nearest node), each ``rowLength`` bytes:
/// - ``lumaCodes`` output Y, one per luma code: the LUT evaluated every 4th code, interpolated
///   between (a pixel reads the entry at its own luma: one load);
/// - ``lumaNodes`` output Cb, then as many output Cr, at luma codes 0, 4, …, 256: a block's chroma
///   takes the node nearest its mean luma (chroma follows luma slowly: two codes off move it by
///   well under a code).
/// One load a sample, the block's pixels sharing a row: a lookup is as cheap as the loads and
/// stores of the planes themselves. Error against the LUT applied pixel by pixel: under a code of
/// luma, at most two of chroma (a chroma code off moves the output by up to its slope).
///
/// Built once per LUT (129² × 65 evaluations, 6.4 MB: some 60 ms in a release build); immutable
/// afterwards and shared by every filter and thread that applies the LUT.
public final class LUTTable: Sendable {
    /// Chroma lattice points per axis: node k at code 2k (the last, 256, lies just past the range).
    static let chromaNodes = 129
    /// Luma codes, the entries of a row's luma part.
    static let lumaCodes = 256
    /// Luma lattice points of a row's chroma part: node k at code 4k.
    static let lumaNodes = 65
    /// Where a row's output Cb and Cr begin.
    static let cbOffset = lumaCodes
    static let crOffset = lumaCodes + lumaNodes
    static let rowLength = lumaCodes + 2 * lumaNodes

    /// At `(cbNode · chromaNodes + crNode) · rowLength`: the row of that chroma node.
    let rows: [UInt8]

    public init(_ lut: CubeLUT) {
        let grade = LUTGrade(lut)
        var rows = [UInt8](repeating: 0, count: Self.chromaNodes * Self.chromaNodes * Self.rowLength)
        var luma = [Float](repeating: 0, count: Self.lumaNodes)  // one row's output Y at its luma nodes
        for cbNode in 0..<Self.chromaNodes {
            for crNode in 0..<Self.chromaNodes {
                let row = (cbNode * Self.chromaNodes + crNode) * Self.rowLength
                for node in 0..<Self.lumaNodes {
                    let (y, cb, cr) = grade.yuv(Float(node * 4), Float(cbNode * 2), Float(crNode * 2))
                    luma[node] = y
                    rows[row + Self.cbOffset + node] = Self.code(cb)
                    rows[row + Self.crOffset + node] = Self.code(cr)
                }
                for code in 0..<Self.lumaCodes {
                    let below = luma[code >> 2], above = luma[(code >> 2) + 1], t = Float(code & 3) / 4
                    rows[row + code] = Self.code(below + (above - below) * t)
                }
            }
        }
        self.rows = rows
    }

    private static func code(_ value: Float) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
}
