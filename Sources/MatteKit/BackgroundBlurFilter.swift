import FilterKit

/// `backgroundBlur`: blurs the background and keeps the person sharp. The whole picture is blurred
/// into a copy — FilterKit's `gaussianBlur` (three stacked boxes: the cost does not depend on the
/// radius), of radius `amount` × 4 % of the picture's width — and mixed with the frame by the
/// person matte (luma by the full-size matte, chroma by its half-size one).
///
/// The copy and the blur are made at the first frame of a size and kept: later frames allocate
/// nothing. Amount 0, or no matte, leaves the frame unchanged. Built by ``MatteCatalog``'s entry,
/// which holds the engine.
public final class BackgroundBlurFilter: FrameFilter {
    public static let descriptor = FilterDescriptor(name: "backgroundBlur", label: "Background Blur", category: .blur, params: [
        ParameterDescriptor(name: "amount", label: "Amount", default: 0.6, min: 0, max: 1, step: 0.01, identity: 0),
    ])
    /// The blur's radius at amount 1, as a fraction of the picture's width.
    static let widthFraction = 0.04

    public let amount: Double
    private var link: MatteLink
    private var blurred: Frame?
    private var blur: GaussianBlurFilter?

    init(amount: Double, engine: MatteEngine) {
        self.amount = amount
        link = MatteLink(Self.descriptor.name, engine: engine)
    }

    public var needsWarmUp: Bool { amount > 0 && link.needsWarmUp }

    public func apply(to frame: Frame) {
        guard amount > 0, let matte = link.matte(of: frame) else { return }
        let copy = scratch(for: frame)
        copy.copy(from: frame)
        blur!.apply(to: copy)
        MatteMix.mix(frame.y, with: copy.y, by: matte.luma)
        MatteMix.mix(frame.u, with: copy.u, by: matte.chroma)
        MatteMix.mix(frame.v, with: copy.v, by: matte.chroma)
    }

    /// The copy for `frame`'s size and the blur for it, made when the size changes.
    private func scratch(for frame: Frame) -> Frame {
        if let blurred, blurred.width == frame.width, blurred.height == frame.height { return blurred }
        let copy = Frame(width: frame.width, height: frame.height)
        blurred = copy
        // gaussianBlur's radius is in pixels of a 1080-line frame; at most its largest.
        let pixels = amount * Self.widthFraction * Double(frame.width)
        let radius = min(pixels * Frame.referenceHeight / Double(frame.height), GaussianBlurFilter.descriptor.params[0].max)
        blur = GaussianBlurFilter(settings: try! FilterSettings(name: GaussianBlurFilter.descriptor.name,
                                                                parameters: ["radius": radius]))
        return copy
    }
}
