/// Per-plane point operations shared by the colour adjustments. Every map works on one plane at
/// a time (none of these filters couples luma and chroma), so odd widths and heights need no
/// special case: each loop runs over the plane's own visible samples.
///
/// Fixed point: 12 fraction bits (`ColorKernels.one`), rounding by adding ½ before an
/// arithmetic shift. A gain of exactly `one` with no offset gives every input back unchanged.
enum ColorKernels {
    static let fractionBits: Int32 = 12
    static let one: Int32 = 1 << 12
    static let half: Int32 = 1 << 11

    /// `value` in fixed point, rounded.
    static func fixed(_ value: Double) -> Int32 { Int32((value * Double(one)).rounded()) }

    @inline(__always)
    static func clamp(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }
}

/// `x → clamp((x·gain + offset) >> 12)`: an affine map of one plane, vectorised.
struct AffineMap {
    let gain: Int32
    /// Includes the rounding half.
    let offset: Int32

    /// `x → (x − pivot)·gain + pivot + shift`.
    init(gain: Double, pivot: Double, shift: Double) {
        self.gain = ColorKernels.fixed(gain)
        offset = ColorKernels.fixed(pivot - pivot * gain + shift) &+ ColorKernels.half
    }

    var isIdentity: Bool { gain == ColorKernels.one && offset == ColorKernels.half }

    func apply(to plane: Plane) {
        if isIdentity { return }
        let gain = gain, offset = offset, width = plane.width
        for y in 0..<plane.height {
            let row = plane.row(y)
            for x in 0..<width {
                row[x] = ColorKernels.clamp((Int32(row[x]) &* gain &+ offset) &>> ColorKernels.fractionBits)
            }
        }
    }
}

/// A 256-entry lookup table for one plane, built once; owns its memory. Never written after
/// `init`, hence safe to read from several threads.
final class LookupTable: @unchecked Sendable {
    private let table: UnsafeMutablePointer<UInt8>
    let isIdentity: Bool

    /// `map` takes and returns a sample value in 0…255 (real); the result is rounded and clamped.
    init(_ map: (Double) -> Double) {
        table = .allocate(capacity: 256)
        var identity = true
        for i in 0..<256 {
            let value = map(Double(i))
            let sample = value.isNaN ? UInt8(i) : UInt8(min(255, max(0, value.rounded())))
            table[i] = sample
            identity = identity && sample == UInt8(i)
        }
        isIdentity = identity
    }

    deinit { table.deallocate() }

    subscript(_ i: UInt8) -> UInt8 { table[Int(i)] }

    func apply(to plane: Plane) {
        if isIdentity { return }
        let table = UnsafePointer(table), width = plane.width
        for y in 0..<plane.height {
            let row = plane.row(y)
            for x in 0..<width { row[x] = table[Int(row[x])] }
        }
    }
}
