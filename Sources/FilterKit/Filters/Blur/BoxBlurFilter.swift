/// CIBoxBlur: each sample becomes the mean of the (2·r + 1)² box around it, samples outside the
/// frame clamped to the nearest edge. `radius` is in pixels of a 1080-line frame (see
/// ``Frame/pixels(fromReference:)``); `r` is it at the frame's size, rounded. Separable running
/// sums, so the cost does not depend on the radius. Chroma planes (half resolution) use r / 2,
/// rounded up.
public final class BoxBlurFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(
        name: "boxBlur", label: "Box Blur", category: .blur,
        params: [ParameterDescriptor(name: "radius", label: "Radius", default: 10, min: 0, max: 100, step: 0.5,
                                     identity: 0)])

    public let radius: Double
    private let scratch = BlurScratch()

    public init(settings: FilterSettings) {
        radius = settings["radius"]
    }

    /// The box radii, in samples, of the luma and the chroma planes of `frame`.
    func pixelRadii(for frame: Frame) -> (luma: Int, chroma: Int) {
        let luma = Int(frame.pixels(fromReference: radius).rounded())
        return (luma, (luma + 1) / 2)
    }

    public func apply(to frame: Frame) {
        let radii = pixelRadii(for: frame)
        guard radii.luma > 0 else { return }
        scratch.prepare(width: frame.width, height: frame.height)
        scratch.boxBlur(frame.y, radius: radii.luma)
        scratch.boxBlur(frame.u, radius: radii.chroma)
        scratch.boxBlur(frame.v, radius: radii.chroma)
    }
}
