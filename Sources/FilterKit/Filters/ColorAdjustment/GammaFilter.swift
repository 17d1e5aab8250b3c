import Foundation

/// CIGammaAdjust on YUV planes: luma through the table `y′ = 255·(y/255)^power`; chroma as is.
public final class GammaFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "gamma", label: "Gamma", category: .colorAdjustment,
        params: [ParameterDescriptor(name: "power", label: "Power", default: 0.75, min: 0.25, max: 4,
                                     step: 0.01, identity: 1)])

    private let luma: LookupTable

    public init(settings: FilterSettings) {
        let power = settings["power"]
        luma = LookupTable { 255 * pow($0 / 255, power) }
    }

    public func apply(to frame: Frame) {
        luma.apply(to: frame.y)
    }
}
