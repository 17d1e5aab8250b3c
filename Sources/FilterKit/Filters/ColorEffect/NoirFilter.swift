/// CIPhotoEffectNoir: greyscale (chroma 128) with a strong contrast S-curve, slightly darkened.
public final class NoirFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "noir", label: "Noir", category: .colorEffect, params: [])

    private let luma: [UInt8]

    public init(settings: FilterSettings) {
        // Smoothstep twice over (contrast 1 on an already S-shaped curve) for deep blacks.
        let once = GreyscaleCurve.table(contrast: 1, gamma: 1.15)
        let twice = GreyscaleCurve.table(contrast: 0.6, gamma: 1)
        luma = once.map { twice[Int($0)] }
    }

    public func apply(to frame: Frame) {
        ColorEffectTables.map(frame.y, through: luma)
        frame.u.fill(128)
        frame.v.fill(128)
    }
}
