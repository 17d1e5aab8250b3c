/// A warm/cool white-balance shift (in the spirit of CITemperatureAndTint) on YUV planes:
/// `temperature` > 0 warms (Cb down, Cr up), < 0 cools (towards blue: Cb up, Cr down), by up to
/// ``maxShift`` chroma steps at ±1. Luma is untouched; 0 is the identity.
public final class TemperatureFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "temperature", label: "Temperature", category: .colorAdjustment,
        params: [ParameterDescriptor(name: "temperature", label: "Temperature", default: 0.3, min: -1, max: 1,
                                     step: 0.01, identity: 0)])

    /// Chroma shift at temperature ±1.
    static let maxShift = 32.0

    private let cb: AffineMap
    private let cr: AffineMap

    public init(settings: FilterSettings) {
        let shift = settings["temperature"] * Self.maxShift
        cb = AffineMap(gain: 1, pivot: 128, shift: -shift)
        cr = AffineMap(gain: 1, pivot: 128, shift: shift)
    }

    public func apply(to frame: Frame) {
        cb.apply(to: frame.u)
        cr.apply(to: frame.v)
    }
}
