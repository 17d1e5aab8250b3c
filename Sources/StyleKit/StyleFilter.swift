import FilterKit
import Logging

/// `style`: paints the picture in one of the 26 styles of `multistyle26.onnx` (Dumoulin et al.'s
/// conditional instance normalisation, Magenta's weights) or in the style of a picture someone
/// uploaded (``StyleLibrary``: Ghiasi et al.'s arbitrary style network), run through OpenVINO at a
/// reduced size (``StyleEngine``), enlarged, with `detail` of the source's fine luma put back and mixed with
/// the source by `strength`.
///
/// In the catalog only where the runtime loaded (``StyleCatalog``); its parameters are the
/// `style` choice, `strength` and `detail`. Deterministic: the same frames in give the same
/// pictures out; each picture is steadied against the link's previous one where the source did
/// not change (``StyleStabilizer``: no flicker the source's motion does not explain), which starts
/// over at a seek or a scene cut. The first frame of a size allocates the scratch for it (the
/// engine keeps it) and the link's history; later frames allocate nothing.
public final class StyleFilter: FrameFilter {
    public static let descriptor = describing(choices: StyleChoices.shipped)

    /// The filter's catalog entry with `choices` as the `style` parameter's options, the first by
    /// default (a ``StyleLibrary`` adds its uploaded pictures to the shipped styles).
    static func describing(choices: [ParameterDescriptor.Choice]) -> FilterDescriptor {
        FilterDescriptor(name: "style", label: "Style transfer", category: .stylize, params: [
            .choice(name: "style", label: "Style", choices: choices, default: choices[0].id),
            ParameterDescriptor(name: "strength", label: "Strength", default: 1, min: 0, max: 1, step: 0.01, identity: 0),
            ParameterDescriptor(name: "detail", label: "Detail", default: 0.5, min: 0, max: 1, step: 0.01),
        ])
    }

    let style: PaintingStyle
    public let strength: Float
    public let detail: Float
    private let engine: StyleEngine?
    /// This link's history: its picture held steady where the source is (``StyleStabilizer``).
    private let stabilizer = StyleStabilizer()
    private var failed = false

    /// With the process's engine (``StyleEngine/shared``); where there is none the filter changes
    /// nothing (the catalog offers it only where there is one).
    public convenience init(settings: FilterSettings) {
        self.init(style: .shipped(Int(settings["style"])), settings: settings, engine: try? StyleEngine.shared.get())
    }

    /// Painting in `style`, with `settings`' strength and detail.
    init(style: PaintingStyle, settings: FilterSettings, engine: StyleEngine?) {
        self.style = style
        strength = Float(settings["strength"])
        detail = Float(settings["detail"])
        self.engine = engine
    }

    /// While the engine has not loaded and calibrated the network (the first styled picture of
    /// the process waits for that), the link is warmed in the background: the stream goes on
    /// meanwhile.
    public var needsWarmUp: Bool { strength > 0 && !(engine?.isSettled ?? true) }

    public func apply(to frame: Frame) {
        guard strength > 0, !failed, let engine else { return }
        if let error = engine.stylize(frame, style: style, strength: strength, detail: detail, stabilizer: stabilizer) {
            // Once per link: a network that failed once would fail on every frame.
            failed = true
            Log.error("style: \(error); the link passes frames unchanged")
        }
    }
}
