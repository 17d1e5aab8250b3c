/// CISepiaTone: maps colours to a warm brown tone; `intensity` blends from the original (0) to
/// full sepia (1).
///
/// Sepia's RGB matrix (the classic .393/.769/.189 rows) is within 1% of a function of luma
/// alone, so on YUV planes it is one luma lookup per pixel and, per 2×2 block, a chroma lookup by
/// the block's mean luma — no RGB round trip. The blend is folded into the tables.
public final class SepiaFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "sepia", label: "Sepia", category: .colorEffect,
        params: [ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: 0, max: 1,
                                     step: 0.01, identity: 0)])

    /// Blend weight of the sepia tone, 0…256.
    private let weight: Int32
    /// Luma → blended luma.
    private let lumaTable: UnsafeMutablePointer<UInt8>
    /// Mean luma → sepia Cb (Cr) × weight, plus rounding.
    private let cbTable: UnsafeMutablePointer<Int32>
    private let crTable: UnsafeMutablePointer<Int32>

    public init(settings: FilterSettings) {
        let intensity = settings["intensity"]
        weight = Int32((intensity * 256).rounded())
        lumaTable = .allocate(capacity: 256)
        cbTable = .allocate(capacity: 256)
        crTable = .allocate(capacity: 256)
        for luma in 0..<256 {
            let tone = SepiaFilter.tone(ofLuma: Double(luma))
            lumaTable[luma] = UInt8((Double(luma) + intensity * (tone.y - Double(luma))).rounded())
            cbTable[luma] = Int32(tone.cb.rounded()) * weight + 128
            crTable[luma] = Int32(tone.cr.rounded()) * weight + 128
        }
    }

    deinit {
        lumaTable.deallocate()
        cbTable.deallocate()
        crTable.deallocate()
    }

    /// The sepia matrix applied to the grey of `luma`, clipped in RGB, back in full-range BT.601.
    static func tone(ofLuma luma: Double) -> (y: Double, cb: Double, cr: Double) {
        let r = min(255, luma * (0.393 + 0.769 + 0.189))
        let g = min(255, luma * (0.349 + 0.686 + 0.168))
        let b = min(255, luma * (0.272 + 0.534 + 0.131))
        let y = 0.299 * r + 0.587 * g + 0.114 * b
        let cb = min(255, max(0, 128 + (b - y) / 1.772))
        let cr = min(255, max(0, 128 + (r - y) / 1.402))
        return (y, cb, cr)
    }

    public func apply(to frame: Frame) {
        let lumaTable = lumaTable, cbTable = cbTable, crTable = crTable
        let keep = 256 &- weight
        let width = frame.width, height = frame.height
        for cy in 0..<frame.u.height {
            let y0 = 2 &* cy, y1 = y0 &+ 1 < height ? y0 &+ 1 : y0
            let row0 = frame.y.row(y0), row1 = frame.y.row(y1)
            let cbRow = frame.u.row(cy), crRow = frame.v.row(cy)
            // One 2×2 block; x1 == x0 only for the last column of an odd width.
            @inline(__always) func block(_ cx: Int, _ x0: Int, _ x1: Int) {
                let a = Int(row0[x0]), b = Int(row0[x1]), c = Int(row1[x0]), d = Int(row1[x1])
                let mean = (a &+ b &+ c &+ d &+ 2) &>> 2
                cbRow[cx] = UInt8(truncatingIfNeeded: (Int32(cbRow[cx]) &* keep &+ cbTable[mean]) &>> 8)
                crRow[cx] = UInt8(truncatingIfNeeded: (Int32(crRow[cx]) &* keep &+ crTable[mean]) &>> 8)
                row1[x1] = lumaTable[d]
                row1[x0] = lumaTable[c]
                row0[x1] = lumaTable[b]
                row0[x0] = lumaTable[a]
            }
            for cx in 0..<(width &>> 1) { block(cx, 2 &* cx, 2 &* cx &+ 1) }
            if width & 1 == 1 { block(width &>> 1, width &- 1, width &- 1) }
        }
    }
}
