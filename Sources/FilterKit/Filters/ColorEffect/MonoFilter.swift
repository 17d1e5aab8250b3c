import Foundation

/// CIPhotoEffectMono: greyscale (chroma 128) with a slight contrast S-curve on luma.
public final class MonoFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "mono", label: "Mono", category: .colorEffect, params: [])

    private let luma: [UInt8]

    public init(settings: FilterSettings) {
        luma = GreyscaleCurve.table(contrast: 0.3, gamma: 1)
    }

    public func apply(to frame: Frame) {
        ColorEffectTables.map(frame.y, through: luma)
        frame.u.fill(128)
        frame.v.fill(128)
    }
}

/// The tone curves of the greyscale photo effects: `x + contrast·(smoothstep(x) − x)` after a
/// gamma, on luma in 0…1.
enum GreyscaleCurve {
    static func table(contrast: Double, gamma: Double) -> [UInt8] {
        ColorEffectTables.table { level in
            let x = pow(level / 255, gamma)
            let s = x * x * (3 - 2 * x)
            return 255 * (x + contrast * (s - x))
        }
    }
}
