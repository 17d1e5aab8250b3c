/// CIUnsharpMask: `y' = y + intensity × (y − blur(y))` on luma, with a blur of `radius`
/// in pixels of a 1080-line frame, scaled with the frame (see ``LumaSharpener``). Chroma is untouched;
/// intensity 0 gives the input back.
public final class UnsharpMaskFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "unsharpMask", label: "Unsharp Mask", category: .sharpen,
        params: [
            ParameterDescriptor(name: "radius", label: "Radius", default: 2.5, min: 0, max: 100, step: 0.1),
            ParameterDescriptor(name: "intensity", label: "Intensity", default: 0.5, min: 0, max: 10, sliderMax: 2,
                                step: 0.01, identity: 0),
        ])

    public let passes: FilterPasses

    public init(settings: FilterSettings) {
        passes = FilterPasses(LumaSharpener(radius: settings["radius"], amount: settings["intensity"]))
    }
}
