/// CIBoxBlur: each sample becomes the mean of the (2·radius + 1)² box around it, samples outside
/// the frame clamped to the nearest edge. Separable running sums, so the cost does not depend on
/// the radius. Chroma planes (half resolution) use radius / 2, rounded.
public final class BoxBlurFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "boxBlur", label: "Box Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", type: .integer, default: 10, min: 0, max: 100,
                                     step: 1, identity: 0)])

    public let radius: Int
    public let chromaRadius: Int
    private let scratch = BlurScratch()

    public init(settings: FilterSettings) {
        radius = Int(settings["radius"])
        chromaRadius = (radius + 1) / 2
    }

    public func apply(to frame: Frame) {
        guard radius > 0 else { return }
        scratch.prepare(width: frame.width, height: frame.height)
        scratch.boxBlur(frame.y, radius: radius)
        scratch.boxBlur(frame.u, radius: chromaRadius)
        scratch.boxBlur(frame.v, radius: chromaRadius)
    }
}
