/// Lookup tables shared by the colour effects: every effect here is a point operation on luma,
/// on chroma, or a palette indexed by luma (chroma then follows the mean luma of its 2×2 block,
/// as in ``SepiaFilter``). Tables are built once in `init`; applying them allocates nothing.
enum ColorEffectTables {
    /// Full-range BT.601 (Y, Cb, Cr) of an RGB colour with components in 0…1, rounded and clamped.
    static func ycbcr(_ r: Double, _ g: Double, _ b: Double) -> (y: UInt8, cb: UInt8, cr: UInt8) {
        let (r, g, b) = (clamp01(r) * 255, clamp01(g) * 255, clamp01(b) * 255)
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        return (byte(y), byte(128 + (b - y) / 1.772), byte(128 + (r - y) / 1.402))
    }

    static func clamp01(_ value: Double) -> Double { min(1, max(0, value)) }

    /// `value` rounded to the nearest integer in 0…255.
    static func byte(_ value: Double) -> UInt8 { UInt8(min(255, max(0, value.rounded()))) }

    /// The 256-entry table of `curve` (a map of 0…255 to 0…255, rounded and clamped).
    static func table(_ curve: (Double) -> Double) -> [UInt8] {
        (0..<256).map { byte(curve(Double($0))) }
    }

    /// Replaces every sample of `plane` by `table[sample]`.
    static func map(_ plane: Plane, through table: [UInt8]) {
        let width = plane.width
        table.withUnsafeBufferPointer { table in
            let lut = table.baseAddress!
            for y in 0..<plane.height {
                let row = plane.row(y)
                for x in 0..<width { row[x] = lut[Int(row[x])] }
            }
        }
    }
}

/// A colour for every luma value: luma maps through `y`, each chroma sample to the palette's
/// Cb/Cr of the mean luma of its 2×2 block. `intensity` blends from the input (0) to the palette
/// (1) in 8-bit fixed point, with both ends exact: the luma blend is folded into its table, the
/// chroma blend is `(own·keep + palette·take + ½) >> 8` with `keep + take = 256`.
struct LumaPalette {
    /// Blended luma for each input luma.
    let y: [UInt8]
    /// `palette·take + 128` for each block mean luma.
    let cb: [UInt16]
    let cr: [UInt16]
    let keep: UInt16

    /// The palette of `color`, which maps a grey level in 0…1 to RGB in 0…1.
    init(intensity: Double = 1, color: (Double) -> (r: Double, g: Double, b: Double)) {
        let entries = (0..<256).map { level in
            let c = color(Double(level) / 255)
            return ColorEffectTables.ycbcr(c.r, c.g, c.b)
        }
        let take = UInt16((ColorEffectTables.clamp01(intensity) * 256).rounded())
        keep = 256 - take
        y = entries.indices.map { UInt8((UInt16($0) * (256 - take) + UInt16(entries[$0].y) * take + 128) >> 8) }
        cb = entries.map { UInt16($0.cb) * take + 128 }
        cr = entries.map { UInt16($0.cr) * take + 128 }
    }

    func apply(to frame: Frame) {
        guard keep != 256 else { return }
        let width = frame.width, height = frame.height, chromaWidth = frame.u.width, keep = keep
        y.withUnsafeBufferPointer { yTable in
            cb.withUnsafeBufferPointer { cbTable in
                cr.withUnsafeBufferPointer { crTable in
                    let yLut = yTable.baseAddress!, cbLut = cbTable.baseAddress!, crLut = crTable.baseAddress!
                    for cy in 0..<frame.u.height {
                        let y0 = 2 &* cy, y1 = y0 &+ 1 < height ? y0 &+ 1 : y0
                        let row0 = frame.y.row(y0), row1 = frame.y.row(y1)
                        let cbRow = frame.u.row(cy), crRow = frame.v.row(cy)
                        // Chroma first: it needs the block's original luma. Whole blocks, then
                        // the last column of an odd width.
                        @inline(__always) func block(_ cx: Int, _ x0: Int, _ x1: Int, blend: Bool) {
                            let sum = UInt16(row0[x0]) &+ UInt16(row0[x1]) &+ UInt16(row1[x0]) &+ UInt16(row1[x1])
                            let mean = Int((sum &+ 2) &>> 2)
                            let cbOwn = blend ? UInt16(cbRow[cx]) &* keep : 0
                            let crOwn = blend ? UInt16(crRow[cx]) &* keep : 0
                            cbRow[cx] = UInt8(truncatingIfNeeded: (cbOwn &+ cbLut[mean]) &>> 8)
                            crRow[cx] = UInt8(truncatingIfNeeded: (crOwn &+ crLut[mean]) &>> 8)
                        }
                        // Full strength (the usual case) skips reading the old chroma.
                        if keep == 0 {
                            for cx in 0..<(width &>> 1) { block(cx, 2 &* cx, 2 &* cx &+ 1, blend: false) }
                        } else {
                            for cx in 0..<(width &>> 1) { block(cx, 2 &* cx, 2 &* cx &+ 1, blend: true) }
                        }
                        if chromaWidth > width &>> 1 { block(chromaWidth &- 1, width &- 1, width &- 1, blend: true) }
                        for x in 0..<width { row0[x] = yLut[Int(row0[x])] }
                        if y1 != y0 {
                            for x in 0..<width { row1[x] = yLut[Int(row1[x])] }
                        }
                    }
                }
            }
        }
    }
}
