/// CIBoxBlur: each sample becomes the mean of the (2·r + 1)² box around it, samples outside the
/// frame clamped to the nearest edge. `radius` is in pixels of a 1080-line frame (see
/// ``Frame/pixels(fromReference:)``); `r` is it at the frame's size, rounded. Separable running
/// sums, so the cost does not depend on the radius. Chroma planes (half resolution) use r / 2,
/// rounded up. Runs as passes over bands of rows, then of columns (see ``SeparableBlur``).
public final class BoxBlurFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(
        name: "boxBlur", label: "Box Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100, step: 0.5,
                                     identity: 0)])

    public let radius: Double
    public let passes: FilterPasses

    public init(settings: FilterSettings) {
        radius = settings["radius"]
        passes = FilterPasses(SeparableBlur(radius: radius, stacks: Self.stacks))
    }

    private static func stacks(_ radius: Double, for frame: Frame) -> (luma: BoxStack, chroma: BoxStack) {
        let radii = pixelRadii(radius, for: frame)
        return (BoxStack(radii.luma), BoxStack(radii.chroma))
    }

    /// The box radii, in samples, of the luma and the chroma planes of `frame`.
    func pixelRadii(for frame: Frame) -> (luma: Int, chroma: Int) { Self.pixelRadii(radius, for: frame) }

    private static func pixelRadii(_ radius: Double, for frame: Frame) -> (luma: Int, chroma: Int) {
        let luma = Int(frame.pixels(fromReference: radius).rounded())
        return (luma, (luma + 1) / 2)
    }
}
