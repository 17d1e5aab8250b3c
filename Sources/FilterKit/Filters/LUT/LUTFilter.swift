/// `lut`: a 3D colour LUT from an Adobe Cube file (Core Image's `CIColorCube`), mixed with the
/// source by `intensity`. The result matches FFmpeg's `lut3d` (`interp=tetrahedral`) on the same
/// file; it is computed on the YUV planes through the LUT's ``LUTTable`` (built once per LUT,
/// the first time a filter applies it: on the ``ChainWarmer``'s queue in `serve`).
///
/// Its `lut` parameter is of the choice kind, the choices being the LUTs of a ``LUTLibrary``, whose
/// catalog entry (``LUTLibrary/catalogEntry``) is how a server offers the filter; the type's own
/// ``descriptor`` and ``init(settings:)`` (what the library falls back to for a LUT removed
/// meanwhile) know only the identity LUT. Row-local: its table is shared and read-only. No allocation per frame.
public final class LUTFilter: RowLocalFilter {
    public static let descriptor = describing(choices: [ParameterDescriptor.Choice(id: "identity", label: "Identity", thumbnail: "")])

    /// The filter's catalog entry with `choices` as the `lut` parameter's options, the first by default.
    static func describing(choices: [ParameterDescriptor.Choice]) -> FilterDescriptor {
        FilterDescriptor(name: "lut", label: "Color LUT", category: .colorEffect, params: [
            .choice(name: "lut", label: "LUT", choices: choices, default: choices[0].id),
            ParameterDescriptor(name: "intensity", label: "Intensity", default: 1, min: 0, max: 1, step: 0.01, identity: 0),
        ])
    }

    public static var buildsTablesOnFirstFrame: Bool { true }

    private let lut: LoadedLUT
    /// `intensity` in 256ths.
    private let mix: Int

    public convenience init(settings: FilterSettings) {
        self.init(lut: LoadedLUT(name: "identity", lut: .identity(size: 2)), settings: settings)
    }

    /// With `lut`, the LUT `settings` chose.
    init(lut: LoadedLUT, settings: FilterSettings) {
        self.lut = lut
        mix = Int((settings["intensity"] * 256).rounded())
    }

    public func apply(to frame: Frame) {
        guard mix > 0 else { return }
        lut.table.rows.withUnsafeBufferPointer { rows in
            LUTKernel(rows: rows.baseAddress!, mix: mix).apply(to: frame)
        }
    }
}

/// The per-frame loop of ``LUTFilter`` over a table's buffers.
private struct LUTKernel {
    let rows: UnsafePointer<UInt8>
    /// 0…256: how much of the LUT's output replaces the source.
    let mix: Int

    func apply(to frame: Frame) {
        // Two copies of the loop, so that the full-intensity one carries no blending at all.
        if mix == 256 { run(frame, full: true) } else { run(frame, full: false) }
    }

    @inline(__always)
    private func run(_ frame: Frame, full: Bool) {
        let width = frame.width, height = frame.height, chromaWidth = frame.u.width
        for cy in 0..<frame.u.height {
            let y0 = 2 &* cy, y1 = y0 &+ 1 < height ? y0 &+ 1 : y0
            let row0 = frame.y.row(y0), row1 = frame.y.row(y1)
            let cbRow = frame.u.row(cy), crRow = frame.v.row(cy)
            for cx in 0..<(width &>> 1) {
                let x0 = 2 &* cx
                block(cbRow + cx, crRow + cx, row0 + x0, row0 + (x0 &+ 1), row1 + x0, row1 + (x0 &+ 1), twoRows: y1 != y0, full: full)
            }
            if chromaWidth > width &>> 1 {
                let last = width &- 1, cx = chromaWidth &- 1
                block(cbRow + cx, crRow + cx, row0 + last, row0 + last, row1 + last, row1 + last,
                      twoRows: y1 != y0, twoColumns: false, full: full)
            }
        }
    }

    /// A chroma sample and its 2×2 luma block (the same pointer twice at an odd edge), all from the
    /// row of the chroma sample's nearest node: each pixel's luma at its own code, the chroma at the
    /// luma node nearest the block's mean luma.
    @inline(__always)
    private func block(_ cbSample: UnsafeMutablePointer<UInt8>, _ crSample: UnsafeMutablePointer<UInt8>,
                       _ a: UnsafeMutablePointer<UInt8>, _ b: UnsafeMutablePointer<UInt8>,
                       _ c: UnsafeMutablePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>,
                       twoRows: Bool, twoColumns: Bool = true, full: Bool) {
        let u = Int(cbSample.pointee), v = Int(crSample.pointee)
        let ya = Int(a.pointee), yb = Int(b.pointee), yc = Int(c.pointee), yd = Int(d.pointee)
        // The mean luma's nearest node: (sum / 4 + 2) / 4, rounded once.
        let node = (ya &+ yb &+ yc &+ yd &+ 8) &>> 4
        let row = rows + (((u &+ 1) &>> 1) &* LUTTable.chromaNodes &+ ((v &+ 1) &>> 1)) &* LUTTable.rowLength
        let gradedCb = Int(row[LUTTable.cbOffset &+ node]), gradedCr = Int(row[LUTTable.crOffset &+ node])
        if full {
            cbSample.pointee = UInt8(truncatingIfNeeded: gradedCb)
            crSample.pointee = UInt8(truncatingIfNeeded: gradedCr)
            a.pointee = row[ya]
            if twoColumns { b.pointee = row[yb] }
            if twoRows { c.pointee = row[yc]; if twoColumns { d.pointee = row[yd] } }
            return
        }
        @inline(__always) func blend(_ own: Int, _ graded: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: (own &* (256 &- mix) &+ graded &* mix &+ 128) &>> 8)
        }
        cbSample.pointee = blend(u, gradedCb)
        crSample.pointee = blend(v, gradedCr)
        a.pointee = blend(ya, Int(row[ya]))
        if twoColumns { b.pointee = blend(yb, Int(row[yb])) }
        if twoRows { c.pointee = blend(yc, Int(row[yc])); if twoColumns { d.pointee = blend(yd, Int(row[yd])) } }
    }
}
