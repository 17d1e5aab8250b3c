import FilterKit
import Logging
import StyleKit

/// What a filter that needs the person matte holds: the engine, and whether it failed already
/// (then the link passes frames unchanged, said once, rather than failing on every frame).
///
/// Belongs to its filter's thread.
struct MatteLink {
    let name: String
    let engine: MatteEngine
    private var failed = false

    init(_ name: String, engine: MatteEngine) {
        self.name = name
        self.engine = engine
    }

    /// Whether the link's first frame would wait for the runtime to load and a network to compile.
    var needsWarmUp: Bool { !engine.isReady }

    /// `frame`'s matte; nil where the network failed (said the first time).
    mutating func matte(of frame: Frame) -> Matte? {
        guard !failed else { return nil }
        switch engine.matte(of: frame) {
        case .success(let matte): return matte
        case .failure(let error):
            failed = true
            Log.error("\(name): \(error); the link passes frames unchanged")
            return nil
        }
    }
}

/// Mixes a plane with a background by a matte: `m·plane + (1 − m)·background`, m = matte / 255,
/// rounded. Row by row on the planes' own strides; the matte's rows are packed.
enum MatteMix {
    /// Mixes `plane` with the plane `background` (same size).
    static func mix(_ plane: Plane, with background: Plane, by matte: UnsafePointer<UInt8>) {
        mix(plane, rows: 0..<plane.height, with: background, by: matte, keepingOnPerson: true)
    }

    /// Mixes rows `rows` of `plane` with those of `other` (same size): where the matte is the
    /// person, `plane` is kept if `keepingOnPerson`, else `other` (and the other way round on the
    /// background).
    static func mix(_ plane: Plane, rows: Range<Int>, with other: Plane, by matte: UnsafePointer<UInt8>,
                    keepingOnPerson: Bool) {
        let width = plane.width
        for y in rows {
            let target = plane.row(y), source = other.row(y), weights = matte + y &* width
            if keepingOnPerson {
                for x in 0..<width { target[x] = blend(target[x], source[x], weights[x]) }
            } else {
                for x in 0..<width { target[x] = blend(source[x], target[x], weights[x]) }
            }
        }
    }

    /// Mixes `plane` with a plane of `value` everywhere.
    static func mix(_ plane: Plane, with value: UInt8, by matte: UnsafePointer<UInt8>) {
        for y in 0..<plane.height {
            let target = plane.row(y), weights = matte + y &* plane.width
            for x in 0..<plane.width { target[x] = blend(target[x], value, weights[x]) }
        }
    }

    /// `(m·a + (255 − m)·b) / 255`, rounded: t / 255 as (t + 128 + (t + 128) >> 8) >> 8, exact for t ≤ 255².
    @inline(__always)
    static func blend(_ a: UInt8, _ b: UInt8, _ m: UInt8) -> UInt8 {
        let weight = UInt32(m), sum = UInt32(a) &* weight &+ UInt32(b) &* (255 &- weight) &+ 128
        return UInt8(truncatingIfNeeded: (sum &+ (sum &>> 8)) &>> 8)
    }
}
