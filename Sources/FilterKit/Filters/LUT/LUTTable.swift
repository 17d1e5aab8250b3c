/// A ``CubeLUT`` as tables over the frame's own colour space (full-range BT.601 YUV), so that
/// applying it takes no per-pixel RGB round trip. The LUT (tetrahedral, as FFmpeg's `lut3d`) is
/// evaluated on a lattice of 65³ YCbCr points, every 4th code on each axis, and interpolated
/// from there into two tables:
/// - ``luma``: for every chroma pair of a lattice of ``lumaNodes``² points (every 2nd code) and
///   every luma code, the output Y. A pixel takes the entry of its chroma sample's nearest node at
///   its own luma: one load a pixel (the half-code chroma error moves Y by well under a code);
/// - ``chroma``: for every point of the coarse lattice, the output Cb and Cr packed in one word
///   (Cb in the low 16 bits, Cr in the high), the luma nodes of a chroma pair next to each other.
///   A chroma sample is the bilinear mix over its chroma cell at the luma node nearest the mean
///   luma of its 2×2 block (chroma follows luma slowly: two codes off move it by under a code),
///   both channels in one multiply-add per corner.
///
/// Built once per LUT (65³ interpolations, then 5.4 MB of tables: some 50 ms in a release build);
/// immutable afterwards and shared by every filter and thread that applies the LUT.
public final class LUTTable: Sendable {
    /// Coarse lattice points per axis: node k at code 4k (the last, 256, lies just past the range
    /// so that every code has a cell).
    static let chromaNodes = 65
    /// Luma codes.
    static let lumaCodes = 256
    /// Luma table lattice points per chroma axis: node k at code 2k, the nearest taken.
    static let lumaNodes = 129

    /// At `(cbNode · lumaNodes + crNode) · 256 + y`: the output Y.
    let luma: [UInt8]
    /// At `(cbNode · chromaNodes + crNode) · chromaNodes + yNode`: the output Cb | Cr << 16.
    let chroma: [UInt32]

    public init(_ lut: CubeLUT) {
        let grade = LUTGrade(lut)
        let nodes = Self.chromaNodes, codes = Self.lumaCodes
        // Per coarse chroma node, a row of 256 luma codes of unrounded Y, from its 65 luma nodes (whose Cb and Cr are the chroma table).
        var rows = [Float](repeating: 0, count: nodes * nodes * codes)
        var chroma = [UInt32](repeating: 0, count: nodes * nodes * nodes)
        var samples = [(Float, Float, Float)](repeating: (0, 0, 0), count: nodes)
        for cbNode in 0..<nodes {
            for crNode in 0..<nodes {
                for yNode in 0..<nodes {
                    let sample = grade.yuv(Float(yNode * 4), Float(cbNode * 4), Float(crNode * 4))
                    samples[yNode] = sample
                    chroma[(cbNode * nodes + crNode) * nodes + yNode] = UInt32(Self.code(sample.1)) | UInt32(Self.code(sample.2)) << 16
                }
                let row = (cbNode * nodes + crNode) * codes
                for code in 0..<codes {
                    let below = samples[code >> 2], above = samples[(code >> 2) + 1], t = Float(code & 3) / 4
                    rows[row + code] = below.0 + (above.0 - below.0) * t
                }
            }
        }
        // The fine lattice's node (i, j) lies at coarse (i/2, j/2): a coarse node, or the mean of two or four.
        var luma = [UInt8](repeating: 0, count: Self.lumaNodes * Self.lumaNodes * codes)
        for i in 0..<Self.lumaNodes {
            let cbNodes = [i >> 1, (i + 1) >> 1]
            for j in 0..<Self.lumaNodes {
                let crNodes = [j >> 1, (j + 1) >> 1]
                let corners = [(cbNodes[0], crNodes[0]), (cbNodes[1], crNodes[0]), (cbNodes[0], crNodes[1]), (cbNodes[1], crNodes[1])]
                    .map { ($0.0 * nodes + $0.1) * codes }
                let out = (i * Self.lumaNodes + j) * codes
                for code in 0..<codes {
                    let sum = rows[corners[0] + code] + rows[corners[1] + code] + rows[corners[2] + code] + rows[corners[3] + code]
                    luma[out + code] = Self.code(sum / 4)
                }
            }
        }
        self.luma = luma
        self.chroma = chroma
    }

    private static func code(_ value: Float) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
}
