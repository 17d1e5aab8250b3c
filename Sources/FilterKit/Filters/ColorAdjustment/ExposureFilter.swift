import Foundation

/// CIExposureAdjust on YUV planes: multiplies linear light by 2^`ev`. Luma goes through a
/// 256-entry table (sRGB decode → × 2^ev → encode, clipped at white); chroma deviations scale by
/// the same table's ratio at mid-grey, clamped to 0…2, so greys stay neutral.
public final class ExposureFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "exposure", label: "Exposure", category: .colorAdjustment,
        params: [ParameterDescriptor(name: "ev", label: "EV", default: 0.5, min: -10, max: 10,
                                     step: 0.01, identity: 0)])

    private let luma: LookupTable
    private let chroma: AffineMap

    public init(settings: FilterSettings) {
        let gain = pow(2, settings["ev"])
        func exposed(_ sample: Double) -> Double {
            255 * Self.encode(min(1, Self.decode(sample / 255) * gain))
        }
        luma = LookupTable(exposed)
        let ratio = gain == 1 ? 1 : min(2, max(0, exposed(128) / 128))
        chroma = AffineMap(gain: ratio, pivot: 128, shift: 0)
    }

    /// The sRGB transfer function and its inverse, on 0…1.
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func encode(_ l: Double) -> Double { l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055 }

    public func apply(to frame: Frame) {
        luma.apply(to: frame.y)
        chroma.apply(to: frame.u)
        chroma.apply(to: frame.v)
    }
}
