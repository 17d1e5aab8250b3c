/// CISharpenLuminance: an unsharp mask on luma (``LumaSharpener``) with Core Image's defaults,
/// `sharpness` as the amount and a small `radius`. Chroma is untouched; sharpness 0 gives the
/// input back.
public final class SharpenFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "sharpen", label: "Sharpen", category: .sharpen,
        params: [
            ParameterDescriptor(name: "sharpness", label: "Sharpness", default: 0.4, min: 0, max: 2, step: 0.01,
                                identity: 0),
            ParameterDescriptor(name: "radius", label: "Radius", default: 1.69, min: 0, max: 20, step: 0.01),
        ])

    public let passes: FilterPasses

    public init(settings: FilterSettings) {
        passes = FilterPasses(LumaSharpener(radius: settings["radius"], amount: settings["sharpness"]))
    }
}
