/// Copies decoded YUV 4:2:0 planes into a ``Frame`` while converting them from their
/// ``ColorSpace`` to full-range BT.601, in a single pass of lookup tables.
///
/// Both range expansion and a change of matrix are affine in (Y, Cb, Cr), and a change of matrix
/// never moves chroma into luma's place: Cb′ and Cr′ depend on Cb and Cr only, Y′ on Y plus a
/// chroma-dependent offset. So per 2×2 block: two chroma lookups give Cb′, Cr′ and the luma
/// offset; each luma sample is one lookup plus that offset. Tables hold values × 64.
public final class ColorConverter {
    public let source: ColorSpace
    /// True when the conversion changes nothing and rows are copied as they are.
    public let isIdentity: Bool
    /// True when luma depends on luma alone and each chroma on itself (a range change, same
    /// matrix): then each sample is `((sample − offset) × scale + add) >> 14`, clamped. The
    /// compiler vectorises this (16-bit operands: `pmaddwd` even on baseline x86-64), unlike
    /// table lookups.
    private let isSeparable: Bool
    private let luma: LinearMap
    private let chroma: LinearMap

    private static let shift: Int32 = 6
    private static let half: Int32 = 1 << (shift - 1)

    /// 256-entry tables: luma, chroma→luma offsets, and the chroma 2×2 matrix.
    private let tables: UnsafeMutablePointer<Int32>
    private var lumaFromY: UnsafeMutablePointer<Int32> { tables }
    private var lumaFromCb: UnsafeMutablePointer<Int32> { tables + 256 }
    private var lumaFromCr: UnsafeMutablePointer<Int32> { tables + 512 }
    private var cbFromCb: UnsafeMutablePointer<Int32> { tables + 768 }
    private var cbFromCr: UnsafeMutablePointer<Int32> { tables + 1024 }
    private var crFromCb: UnsafeMutablePointer<Int32> { tables + 1280 }
    private var crFromCr: UnsafeMutablePointer<Int32> { tables + 1536 }

    public init(from source: ColorSpace) {
        self.source = source
        isIdentity = source == .jpeg
        tables = .allocate(capacity: 256 * 7)
        let m = ColorConverter.matrix(from: source)
        isSeparable = source.matrix == .bt601
        let scale = Double(1 << ColorConverter.shift)
        let lumaScale = source.range == .full ? 1.0 : 255.0 / 219.0
        let chromaScale = source.range == .full ? 1.0 : 255.0 / 224.0
        let lumaOffset = source.range == .full ? 0.0 : 16.0
        luma = LinearMap(offset: Int16(lumaOffset), scale: lumaScale, center: 0)
        chroma = LinearMap(offset: 128, scale: chromaScale, center: 128)
        for i in 0..<256 {
            let luma = (Double(i) - lumaOffset) * lumaScale       // 0…255 when in range
            let chroma = (Double(i) - 128) * chromaScale           // −128…127 when in range
            lumaFromY[i] = Int32((luma * m.yy * scale).rounded())
            lumaFromCb[i] = Int32((chroma * m.yb * scale).rounded())
            lumaFromCr[i] = Int32((chroma * m.yr * scale).rounded())
            cbFromCb[i] = Int32(((chroma * m.bb + 128) * scale).rounded())
            cbFromCr[i] = Int32((chroma * m.br * scale).rounded())
            crFromCb[i] = Int32((chroma * m.rb * scale).rounded())
            crFromCr[i] = Int32(((chroma * m.rr + 128) * scale).rounded())
        }
    }

    deinit { tables.deallocate() }

    /// Converts `y`, `u`, `v` (4:2:0, the frame's size) into `frame`. The source planes may be the
    /// frame's own: every sample is read before it is written.
    public func convert(y: UnsafePointer<UInt8>, yStride: Int,
                        u: UnsafePointer<UInt8>, uStride: Int,
                        v: UnsafePointer<UInt8>, vStride: Int,
                        into frame: Frame) {
        let width = frame.width, height = frame.height
        if isIdentity {
            copyPlane(y, yStride, to: frame.y)
            copyPlane(u, uStride, to: frame.u)
            copyPlane(v, vStride, to: frame.v)
            return
        }
        if isSeparable {
            scalePlane(y, yStride, luma, to: frame.y)
            scalePlane(u, uStride, chroma, to: frame.u)
            scalePlane(v, vStride, chroma, to: frame.v)
            return
        }
        let lumaFromY = lumaFromY, lumaFromCb = lumaFromCb, lumaFromCr = lumaFromCr
        let cbFromCb = cbFromCb, cbFromCr = cbFromCr, crFromCb = crFromCb, crFromCr = crFromCr
        let shift = ColorConverter.shift, half = ColorConverter.half
        for cy in 0..<frame.u.height {
            let uIn = u + cy &* uStride, vIn = v + cy &* vStride
            let uOut = frame.u.row(cy), vOut = frame.v.row(cy)
            let y0 = 2 &* cy, y1 = y0 &+ 1 < height ? y0 &+ 1 : y0
            let yIn0 = y + y0 &* yStride, yIn1 = y + y1 &* yStride
            let yOut0 = frame.y.row(y0), yOut1 = frame.y.row(y1)
            // One 2×2 block; x1 == x0 only for the last column of an odd width. Every sample is
            // read before any is written, which makes in-place conversion safe.
            @inline(__always) func block(_ cx: Int, _ x0: Int, _ x1: Int) {
                let cb = Int(uIn[cx]), cr = Int(vIn[cx])
                let a = Int(yIn0[x0]), b = Int(yIn0[x1]), c = Int(yIn1[x0]), d = Int(yIn1[x1])
                uOut[cx] = clampShifted(cbFromCb[cb] &+ cbFromCr[cr] &+ half, shift)
                vOut[cx] = clampShifted(crFromCb[cb] &+ crFromCr[cr] &+ half, shift)
                let offset = lumaFromCb[cb] &+ lumaFromCr[cr] &+ half
                yOut1[x1] = clampShifted(lumaFromY[d] &+ offset, shift)
                yOut1[x0] = clampShifted(lumaFromY[c] &+ offset, shift)
                yOut0[x1] = clampShifted(lumaFromY[b] &+ offset, shift)
                yOut0[x0] = clampShifted(lumaFromY[a] &+ offset, shift)
            }
            for cx in 0..<(width &>> 1) { block(cx, 2 &* cx, 2 &* cx &+ 1) }
            if width & 1 == 1 { block(width &>> 1, width &- 1, width &- 1) }
        }
    }

    /// `(sample − offset) × scale + center`, in fixed point with 14 fraction bits.
    struct LinearMap {
        let offset: Int16
        let scale: Int16
        let add: Int32

        init(offset: Int16, scale: Double, center: Int32) {
            self.offset = offset
            self.scale = Int16((scale * 16384).rounded())
            add = center << 14 + 8192
        }
    }

    /// Copies a plane through `map`, clamped to 0…255.
    private func scalePlane(_ source: UnsafePointer<UInt8>, _ stride: Int, _ map: LinearMap, to plane: Plane) {
        let offset = map.offset, scale = Int32(map.scale), add = map.add
        for row in 0..<plane.height {
            let input = source + row &* stride, output = plane.row(row)
            for x in 0..<plane.width {
                let centered = Int32(Int16(input[x]) &- offset)
                output[x] = clampShifted(centered &* scale &+ add, 14)
            }
        }
    }

    private func copyPlane(_ source: UnsafePointer<UInt8>, _ stride: Int, to plane: Plane) {
        guard UnsafeMutablePointer(mutating: source) != plane.base else { return }
        for row in 0..<plane.height {
            plane.row(row).update(from: source + row &* stride, count: plane.width)
        }
    }

    /// The affine map from (Y 0…255, Cb −128…127, Cr −128…127) in `source`'s matrix to BT.601,
    /// as coefficients: Y′ = yy·Y + yb·Cb + yr·Cr, Cb′ = bb·Cb + br·Cr, Cr′ = rb·Cb + rr·Cr.
    static func matrix(from source: ColorSpace) -> (yy: Double, yb: Double, yr: Double,
                                                    bb: Double, br: Double, rb: Double, rr: Double) {
        func toBT601(_ y: Double, _ cb: Double, _ cr: Double) -> (Double, Double, Double) {
            let (kr, kb) = source.matrix.coefficients
            let r = y + 2 * (1 - kr) * cr
            let b = y + 2 * (1 - kb) * cb
            let g = (y - kr * r - kb * b) / (1 - kr - kb)
            let (kr6, kb6) = ColorSpace.Matrix.bt601.coefficients
            let y6 = kr6 * r + (1 - kr6 - kb6) * g + kb6 * b
            return (y6, (b - y6) / (2 * (1 - kb6)), (r - y6) / (2 * (1 - kr6)))
        }
        let fromY = toBT601(1, 0, 0), fromCb = toBT601(0, 1, 0), fromCr = toBT601(0, 0, 1)
        return (fromY.0, fromCb.0, fromCr.0, fromCb.1, fromCr.1, fromCb.2, fromCr.2)
    }
}

/// `value >> shift`, clamped to 0…255.
@inline(__always)
func clampShifted(_ value: Int32, _ shift: Int32) -> UInt8 {
    UInt8(truncatingIfNeeded: min(max(value >> shift, 0), 255))
}
