/// CIColorPosterize: luma quantised to `levels` evenly spaced values over 0…255, and each chroma
/// deviation from 128 to multiples of the same step.
public final class PosterizeFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "posterize", label: "Posterize", category: .colorEffect,
        params: [ParameterDescriptor(name: "levels", label: "Levels", type: .integer, default: 6, min: 2, max: 30,
                                     step: 1)])

    private let luma: [UInt8]
    private let chroma: [UInt8]

    public init(settings: FilterSettings) {
        let step = 255 / (settings["levels"] - 1)
        luma = ColorEffectTables.table { ($0 / step).rounded() * step }
        chroma = ColorEffectTables.table { 128 + (($0 - 128) / step).rounded() * step }
    }

    public func apply(to frame: Frame) {
        ColorEffectTables.map(frame.y, through: luma)
        ColorEffectTables.map(frame.u, through: chroma)
        ColorEffectTables.map(frame.v, through: chroma)
    }
}
