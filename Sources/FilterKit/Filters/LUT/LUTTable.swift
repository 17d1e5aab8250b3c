/// A ``CubeLUT`` as tables over the frame's own colour space (full-range BT.601 YUV), so that
/// applying it takes no per-pixel RGB round trip: for every chroma pair on a lattice of
/// ``chromaNodes``² points (every 4th code) and every one of the 256 luma codes, the LUT's output
/// (tetrahedral, as FFmpeg's `lut3d`) converted back to Y, Cb and Cr. A pixel's luma is then the
/// bilinear mix, over its chroma sample's lattice cell, of four table entries at its own luma;
/// a chroma sample's Cb and Cr likewise at the mean luma of its 2×2 block.
///
/// Built once per LUT (about 1.1 M interpolations: some 40 ms in a release build), 3.2 MB;
/// immutable afterwards and shared by every filter and thread that applies the LUT.
public final class LUTTable: Sendable {
    /// Chroma lattice points per axis: node k at code 4k (the last, 256, lies just past the range
    /// so that every code has a cell).
    static let chromaNodes = 65
    /// Entries of one chroma node: one per luma code.
    static let lumaCodes = 256

    /// Luma lattice points per chroma axis: node k at code 2k, the nearest taken.
    static let lumaNodes = 129

    /// Per chroma node `(cb / 2, cr / 2)`, rounded, at `(cbNode · lumaNodes + crNode) · 256`: the
    /// output Y for each luma code.
    let luma: [UInt8]
    /// Per chroma node `(cb / 4, cr / 4)` at `(cbNode · chromaNodes + crNode) · 256`: the output Cb
    /// and Cr for each luma code.
    let cb: [UInt8]
    let cr: [UInt8]

    /// The LUT is evaluated on a lattice of 65³ YCbCr points (every 4th code on each axis, the
    /// size of the largest Cube lattice); the tables' entries between them are interpolated
    /// linearly, along luma first, then (the luma table's odd chroma nodes) across chroma.
    public init(_ lut: CubeLUT) {
        let grade = Grade(lut)
        let nodes = Self.chromaNodes, codes = Self.lumaCodes
        // Per coarse chroma node, a row of 256 luma codes (unrounded Y; Cb and Cr into their tables), from 65 luma nodes.
        var rows = [Float](repeating: 0, count: nodes * nodes * codes)
        var cb = [UInt8](repeating: 0, count: nodes * nodes * codes), cr = cb
        var samples = [(Float, Float, Float)](repeating: (0, 0, 0), count: nodes)
        for cbNode in 0..<nodes {
            for crNode in 0..<nodes {
                for yNode in 0..<nodes { samples[yNode] = grade.yuv(Float(yNode * 4), Float(cbNode * 4), Float(crNode * 4)) }
                let row = (cbNode * nodes + crNode) * codes
                for code in 0..<codes {
                    let below = samples[code >> 2], above = samples[(code >> 2) + 1], t = Float(code & 3) / 4
                    let y = below.0 + (above.0 - below.0) * t
                    rows[row + code] = y
                    cb[row + code] = Self.code(below.1 + (above.1 - below.1) * t)
                    cr[row + code] = Self.code(below.2 + (above.2 - below.2) * t)
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
        self.cb = cb
        self.cr = cr
    }

    private static func code(_ value: Float) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
}

/// A LUT applied to one full-range BT.601 YCbCr colour.
private struct Grade {
    let lut: CubeLUT
    let low: [Float]
    let span: [Float]

    init(_ lut: CubeLUT) {
        self.lut = lut
        low = lut.domainMin
        span = (0..<3).map { lut.domainMax[$0] - lut.domainMin[$0] }
    }

    /// The graded colour, unrounded.
    func yuv(_ y: Float, _ cb: Float, _ cr: Float) -> (Float, Float, Float) {
        let u = cb - 128, v = cr - 128
        // JFIF's YCbCr → RGB, clamped as a decoder does, then into the LUT's domain.
        let red = Self.unit(y + 1.402 * v), green = Self.unit(y - 0.344136 * u - 0.714136 * v), blue = Self.unit(y + 1.772 * u)
        let (r, g, b) = lut.tetrahedral((red - low[0]) / span[0], (green - low[1]) / span[1], (blue - low[2]) / span[2])
        let (rr, gg, bb) = (Self.clamp(r) * 255, Self.clamp(g) * 255, Self.clamp(b) * 255)
        return (0.299 * rr + 0.587 * gg + 0.114 * bb, 128 - 0.168736 * rr - 0.331264 * gg + 0.5 * bb,
                128 + 0.5 * rr - 0.418688 * gg - 0.081312 * bb)
    }

    private static func unit(_ value: Float) -> Float { clamp(value / 255) }
    private static func clamp(_ value: Float) -> Float { min(max(value, 0), 1) }
}
