import FilterKit
import Logging

/// `style`: paints the picture in one of the 26 styles of `multistyle26.onnx` (Dumoulin et al.'s
/// conditional instance normalisation, Magenta's weights) or in the style of a picture someone
/// uploaded (``StyleLibrary``: Ghiasi et al.'s arbitrary style network), run through OpenVINO at a
/// reduced size (``StyleEngine``), enlarged, with `detail` of the source's fine luma put back and mixed with
/// the source by `strength`.
///
/// In the catalog only where the runtime loaded (``StyleCatalog``); its parameters are the
/// `style` choice, `strength` and `detail`. The network runs beside the picture
/// (``StyleRefresher``): every frame is composed at once from the newest stylization, so the
/// picture moves at the source's rate and the style refreshes as often as the network can; when
/// the network keeps up (or in ``StyleRefresher/Options/synchronous`` mode) each frame is painted
/// from itself and the same frames in give the same pictures out. Each stylization is steadied
/// against the link's previous one where the source did not change (``StyleStabilizer``: no
/// flicker the source's motion does not explain), which starts over at a seek or a scene cut. The
/// first frame of a size, and the first of a network size, allocate the scratch for it; later
/// frames allocate nothing. Applied on one thread at a time (the chain's).
public final class StyleFilter: FrameFilter {
    public static let descriptor = describing(choices: StyleChoices.shipped)

    /// The filter's catalog entry with `choices` as the `style` parameter's options, the first by
    /// default (a ``StyleLibrary`` adds its uploaded pictures to the shipped styles), and the
    /// refresh rate `calibration` says the network reaches (``FilterDescriptor/refreshHz``).
    static func describing(choices: [ParameterDescriptor.Choice], calibration: StyleCalibration? = nil) -> FilterDescriptor {
        FilterDescriptor(name: "style", label: "Style transfer", category: .stylize, params: [
            .choice(name: "style", label: "Style", choices: choices, default: choices[0].id),
            ParameterDescriptor(name: "strength", label: "Strength", default: 1, min: 0, max: 1, step: 0.01, identity: 0),
            ParameterDescriptor(name: "detail", label: "Detail", default: 0.5, min: 0, max: 1, step: 0.01),
        ], refreshHz: calibration?.refreshHz)
    }

    let style: PaintingStyle
    public let strength: Float
    public let detail: Float
    private let engine: StyleEngine
    /// The network beside the picture: this link's, or the one it took over (``inherit(from:)``).
    private(set) var refresher: StyleRefresher?
    /// The frame's planes at the newest stylization's size, and that stylization (copied out).
    private var scratch: StyleScratch?
    private var newest: Stylization?
    private var meter = RefreshMeter()
    /// The submission of the frame the scene shown began with (a seek, a cut): stylizations of
    /// frames before it are not composed from.
    private var sceneStart = 0
    /// The picture the link composed last (its sequence and time): the same again is a re-render.
    private var lastPicture: (sequence: Int, time: Double)?
    private var failed = false

    /// Painting in `style`, with `settings`' strength and detail, on `engine` (built by the catalog
    /// entry of a ``StyleLibrary``, which holds the engine).
    init(style: PaintingStyle, settings: FilterSettings, engine: StyleEngine) {
        self.style = style
        strength = Float(settings["strength"])
        detail = Float(settings["detail"])
        self.engine = engine
    }

    /// Until the link has a stylization to compose from (the engine loading and calibrating the
    /// network, the first run), it is warmed in the background: the stream goes on meanwhile. A
    /// link that took over another's network (``inherit(from:)``) has one at once.
    public var needsWarmUp: Bool { strength > 0 && (refresher?.published ?? 0) == 0 }

    /// Takes over `previous`'s network beside the picture (its worker, its steadied history, its
    /// newest stylization) when it is a `style` link on the same engine: a slider moved shows at
    /// the next frame, and another style replaces the old one as soon as the network painted it.
    public func inherit(from previous: any FrameFilter) {
        guard let previous = previous as? StyleFilter, previous.engine === engine, refresher == nil else { return }
        refresher = previous.refresher
        lastPicture = previous.lastPicture  // the picture shown again under the new settings waits for its own
    }

    /// The stylizations a second the network made for this link over the last second or so; nil
    /// before the first second.
    public var refreshRate: Double? { meter.rate }

    /// Composes `frame` from the newest stylization and the frame itself (``StyleScratch``); hands
    /// the frame to the network beside it. Waits only at the link's first frame (or in
    /// ``StyleRefresher/Options/synchronous`` mode); a frame with nothing to compose from (a seek
    /// or a scene cut since the newest stylization) passes unchanged.
    public func apply(to frame: Frame) {
        guard strength > 0, !failed else { return }
        let refresher = self.refresher ?? StyleRefresher(engine: engine, options: engine.refreshing)
        self.refresher = refresher
        let number = refresher.submit(frame, style: style)
        if refresher.options.synchronous || refresher.published == 0 || waitsForItsOwn(frame) { refresher.wait(for: number) }
        if let error = refresher.failure {
            // Once per link: a network that failed once would fail on every frame.
            failed = true
            Log.error("style: \(error); the link passes frames unchanged")
            return
        }
        refresher.newest(into: &newest)
        meter.note(published: refresher.published, at: .now)
        guard let stylization = newest else { return }
        if !compose(frame, number: number, from: stylization) {
            // A cut or a seek since the newest stylization (a new link's first is of the warm-up's
            // blank frame): the first picture of the new scene waits for its own, once, rather
            // than showing unstyled.
            refresher.wait(for: number)
            refresher.newest(into: &newest)
            if let own = newest { _ = compose(frame, number: number, from: own) }
        }
    }

    /// Whether `frame` is painted from itself, waiting for the network: a picture rendered again
    /// (paused: a slider moved, another style picked — the look shown must be the one chosen) or
    /// the first after a seek. Nothing waits for it while the picture moves on.
    private func waitsForItsOwn(_ frame: Frame) -> Bool {
        defer { lastPicture = (frame.sequence, frame.time) }
        return frame.isDiscontinuity || (lastPicture.map { $0.sequence == frame.sequence && $0.time == frame.time } ?? false)
    }

    /// Carries `stylization` onto `frame` (true), unless the frame is a seek or a scene cut away
    /// from the one it was painted from (false: the frame is left unchanged).
    private func compose(_ frame: Frame, number: Int, from stylization: Stylization) -> Bool {
        if !(scratch?.fits(frame.width, frame.height, stylization.size) ?? false) {
            scratch = StyleScratch(width: frame.width, height: frame.height, network: stylization.size)
        }
        if scratch!.reduceJudgingCut(frame) || frame.isDiscontinuity { sceneStart = number }
        guard stylization.number >= sceneStart else { return false }
        let madeFrom = stylization.number == number ? nil : UnsafePointer(stylization.source.baseAddress!)
        scratch!.finish(frame, styled: stylization.styled.baseAddress!, madeFrom: madeFrom, strength: strength, detail: detail)
        return true
    }
}
