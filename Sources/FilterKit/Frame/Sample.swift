/// A float in 0…255 (or outside: clamped; NaN gives 0) rounded to the nearest sample, without a
/// conversion that can trap: 1.5 × 2²³ added puts the integer in the low bits of the mantissa. A
/// loop that stores samples through it vectorises, where `UInt8(_: Float)`'s range check keeps it
/// scalar.
@inlinable @inline(__always)
public func roundedSample(_ value: Float) -> UInt8 {
    let clamped = value > 0 ? Swift.min(value, 255) : 0
    return UInt8(truncatingIfNeeded: (clamped + 12_582_912).bitPattern)
}
