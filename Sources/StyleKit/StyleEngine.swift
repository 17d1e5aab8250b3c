import FilterKit
import Foundation
import Logging
import Synchronization

/// The style network, one per process (made by the executable, handed to the catalog: never a
/// global): OpenVINO loaded once, the network compiled per picture size and kept while a link
/// paints with it (and one more: ``KeptNetworks``), and the size it
/// runs at chosen by a short calibration.
///
/// Whether the runtime and the network are laid out decides whether the catalog offers `style`.
/// Loading them (the library, a core, the model read: ~0.15 s and ~17 MB) and the calibration —
/// compile at the smallest of ``heights``, time a few runs, pick the largest height whose cost
/// (scaled by its pixels) fits ``frameBudget`` — run at ``prepare()`` (`serve` calls it on a
/// thread of its own after start, unless `--style-at-first-use`) or at the first styled frame of
/// the process, whichever comes first. That first frame
/// waits for them; frames are styled at the smallest height until the chosen one, compiled on a
/// thread of its own, is ready (in `serve` a new `style` link is warmed in the background until
/// the engine ``isSettled``, so the stream does not stall meanwhile). From then on the height
/// follows the machine's load (``StyleHeightChooser``: down when a second's runs are over the
/// budget, up when a larger height fits), each new one compiled the same way. The network runs
/// beside the picture, on each link's ``StyleRefresher`` worker (``paint(_:style:stabilizer:restart:painting:scratch:into:)``).
///
/// Thread safety: any thread may use it; calibration and runs are serialised by one lock (two
/// `style` links take turns). The network's own threads (`threads`, both cores by default) are
/// OpenVINO's, not pinned, so decoding and encoding keep their share.
public final class StyleEngine: Sendable {
    /// The network the shipped styles are painted with: int8 (``StyleModel/shipped``, what `serve`
    /// uses), or the float32 one it was quantized from (``StyleModel/shippedFloat32``), for
    /// `bench` to measure one against the other.
    public enum ShippedNetwork: String, Sendable {
        case int8, float32
    }

    /// The time a network run may take at most: a frame at 25 fps (40 ms), less what the rest of
    /// the frame takes beside it — at 720p some 10 ms of resampling, conversion and detail around
    /// the network, 6 ms of decoding and 5–7 of H.264 encoding (at 1080p30's goal of 15 fps, 66 ms,
    /// about twice that). With 30 ms the network took 216 lines (28.5 ms a run) and a page of the
    /// natural 720p clip got 16–20 fps; at 180 lines (21 ms) 19–25.
    public static let frameBudget: Duration = .milliseconds(20)
    /// The heights the calibration chooses among, largest first (multiples of 4).
    static let heights = [360, 288, 240, 216, 180, 144]
    /// The compiled networks kept at most: a few channels' picture shapes and the predictor.
    static let keptNetworks = 6
    /// The compiled networks no link paints with kept at most (``KeptNetworks``): a channel
    /// removed and added again, or the calibration's, compiles nothing.
    static let idleNetworks = 1

    struct NetworkSize: Hashable {
        let width: Int
        let height: Int
    }

    /// A compiled network: which model, at which size.
    struct NetworkKey: Hashable {
        let model: StyleModel
        let size: NetworkSize
    }

    private struct State {
        /// OpenVINO, once loaded.
        var runtime: OpenVINORuntime?
        /// The network's height: fixed, or once calibrated.
        var height: Int?
        /// Why loading or the calibration failed (then every use fails).
        var failure: StyleUnavailable?
        /// The compiled networks, by model and size: the shipped one at each picture shape the
        /// links paint, and one more (the calibration's, the one at a shape styled lately, the
        /// style pictures' predictor).
        var networks = KeptNetworks<NetworkKey, StyleNetwork>(capacity: StyleEngine.keptNetworks, idle: StyleEngine.idleNetworks)
        /// The height the calibration or the chooser chose where it is not the one styling
        /// meanwhile: compiled next, outside the lock (``upgrade(to:)``).
        var upgrade: Int?
        /// Whether a height is being compiled (no other is chosen meanwhile).
        var compiling = false
        /// Moves the calibrated height with the load; nil while the height is fixed or not calibrated.
        var chooser: StyleHeightChooser?
    }

    private let threads: Int
    /// ``StyleNetwork/slowdown`` of every network it compiles.
    private let slowdown: Double
    /// The threads OpenVINO runs on beside the frame path (the links' refreshers, the warm-up, the
    /// compiles), at a lower priority, waited for at the stop.
    let workers = StyleWorkers()
    /// How the links' networks run beside the picture (``StyleRefresher``): as fast as they can,
    /// but for tests.
    let refreshing: StyleRefresher.Options
    /// The network that paints the shipped styles: ``StyleModel/shipped`` (int8), or its float32 original.
    let shippedModel: StyleModel
    /// The folder the runtime is loaded from.
    let root: URL
    private let state: Mutex<State>
    /// The network runs (``paint(_:style:stabilizer:restart:painting:scratch:into:)``, ``code(of:)``), one at
    /// a time, in the order the workers asked: every channel's style refreshes.
    private let turns = FairTurns()
    /// Runs and their total time, for `bench` (the network's own cost beside the filter's).
    private let runs = Atomic<Int>(0)
    private let runNanoseconds = Atomic<Int>(0)
    /// ``isSettled``.
    private let settled = Atomic<Bool>(false)
    /// ``calibration``: apart from ``state``, whose lock a run holds.
    private let measured = Mutex<StyleCalibration?>(nil)

    /// The engine of the runtime at `root` (the library and the networks), painting the shipped
    /// styles with `network`: nothing is loaded until ``prepare(lines:)`` or the first styled
    /// frame; throws, without loading anything, where they are not laid out there. One per process
    /// is enough (every `style` link of every channel takes turns on it): the executable makes it
    /// once and hands it to the catalog.
    /// `slowdown` (≥ 1) makes every network run take that many times as long, the extra spent
    /// busy on the running thread: a benchmark's stand-in for a slower processor's network
    /// (1 in use). `perFrame`: every frame waits for its own stylization (a benchmark's reference).
    public convenience init(root: URL, network: ShippedNetwork, slowdown: Double = 1, perFrame: Bool = false) throws(StyleUnavailable) {
        try self.init(root: root, shipped: network == .float32 ? .shippedFloat32 : .shipped,
                      refreshing: StyleRefresher.Options(synchronous: perFrame), slowdown: slowdown)
    }

    /// The engine of the runtime at `root`, which must hold the library and the network (they are
    /// loaded at the first use). `height` fixes the network's height (no calibration: tests,
    /// benchmarks); `shipped` is the network the shipped styles are painted with; `refreshing`
    /// how the links' networks run beside the picture (tests make them synchronous or stall them).
    init(root: URL, threads: Int = 2, height: Int? = nil, shipped: StyleModel = .shipped,
         refreshing: StyleRefresher.Options = StyleRefresher.Options(), slowdown: Double = 1) throws(StyleUnavailable) {
        try OpenVINORuntime.checkLaidOut(root, model: shipped.file)
        self.root = root
        self.threads = threads
        self.slowdown = slowdown
        self.refreshing = refreshing
        shippedModel = shipped
        state = Mutex(State(height: height))
    }

    /// The network's height, calibrating first if that was not done (and compiling the height it
    /// chose before returning, rather than in the background); nil if it failed (said then).
    /// `lines` (a multiple of 4) fixes the height instead when it was not fixed or calibrated yet
    /// (benchmarks that compare runs).
    @discardableResult
    public func prepare(lines: Int? = nil) -> Int? {
        precondition(lines.map { $0 > 0 && $0 % 4 == 0 } ?? true, "network lines \(lines!)")
        let upgrade = state.withLock { state in
            if state.height == nil, let lines { state.height = lines }
            _ = try? calibrated(&state)
            return state.upgrade.take()
        }
        if let upgrade { self.upgrade(to: upgrade) }
        return state.withLock { $0.failure == nil ? $0.height : nil }
    }

    /// ``prepare(lines:)`` on a thread of the engine's, at the network's priority (``StyleWorkers``:
    /// OpenVINO's threads, made by this first run, keep it), so that the first styled picture does
    /// not wait for it; ``stop(within:)`` waits for it. `done` gets the ``calibration`` there,
    /// nil where the network cannot run.
    public func prepareInBackground(then done: @escaping @Sendable (StyleCalibration?) -> Void) {
        _ = workers.start("style-warm-up") { [self] in done(prepare() == nil ? nil : calibration) }
    }

    /// Ends every thread running the network beside the picture (each link's after its run in
    /// progress, a warm-up or a compile when it is done) and waits for them, at most `bound`: call
    /// before the process exits, which tears OpenVINO down. Links styled after it pass their frames
    /// unchanged. False if one was still running at the bound (said).
    @discardableResult
    public func stop(within bound: Duration) -> Bool { workers.stop(within: bound) }

    /// The height the network runs at and what it reaches there (``StyleCalibration``), once
    /// calibrated; nil before, and where it failed. Never waits for a run.
    public var calibration: StyleCalibration? { measured.withLock { $0 } }

    /// Whether styling a frame would not wait for the runtime to load or the calibration (done,
    /// or failed): until then a new `style` link is better warmed in the background
    /// (``StyleFilter/needsWarmUp``).
    public var isSettled: Bool { settled.load(ordering: .acquiring) }

    /// Paints `frame` in `style` at the network's size for it (the calibrated height, calibrating
    /// first if need be: that call waits): reduced into `into.source` (``StyleScratch/reduce(_:into:)``),
    /// run through the network, steadied by the calling link's `stabilizer` (started over where
    /// `restart`), and converted back into `into.styled` (Y′, U′, V′ at the network's size).
    /// `scratch` and `into` are (re)made when the frame's or the network's size changed, so
    /// they allocate only then. `painting` is the network the calling link painted with last, and
    /// then this one (``finishedPainting(with:)`` when the link ends). The run's time, or why the
    /// network cannot run.
    ///
    /// Called on a ``StyleRefresher``'s worker thread; everything happens in a turn (the workers
    /// of every channel take turns in order: ``FairTurns``) under the engine's lock, which the
    /// frame path never takes.
    func paint(_ frame: Frame, style: PaintingStyle, stabilizer: StyleStabilizer, restart: Bool, painting: inout NetworkKey?,
               scratch: inout StyleScratch?, into stylization: inout Stylization?) -> Result<Duration, StyleUnavailable> {
        turns.withTurn { state.withLock { state in
            Result { () throws(StyleUnavailable) in
                defer { startUpgrade(&state) }
                let size = try networkSize(forFrame: frame.width, frame.height, &state)
                let key = NetworkKey(model: style.model == .shipped ? shippedModel : style.model, size: size)
                let network = try compiled(key, &state)
                state.networks.paint(with: key, insteadOf: painting)
                painting = key
                if !(scratch?.fits(frame.width, frame.height, size) ?? false) {
                    scratch = StyleScratch(width: frame.width, height: frame.height, network: size)
                }
                if stylization?.size != size { stylization = Stylization(size: size) }
                let count = size.width * size.height, source = stylization!.source.baseAddress!
                scratch!.reduce(frame, into: source)
                let layout = network.model.layout
                StyleColor.rgb(fromY: source, u: source + count, v: source + 2 * count, count: count,
                               into: network.input.baseAddress!, layout: layout)
                style.load(into: network)
                let start = ContinuousClock.now
                let rgb = try network.run().get()
                let run = ContinuousClock.now - start
                let steady = stabilizer.steady(rgb, layout: layout, count: count, y: source, u: source + count,
                                               v: source + 2 * count, restart: restart)
                let styled = stylization!.styled.baseAddress!
                StyleColor.yuv(fromRGB: steady, layout: layout, count: count, y: styled, u: styled + count, v: styled + 2 * count)
                record(run: run)
                choose(after: run, at: size.height, &state)
                return run
            }
        } }
    }

    /// A link that painted with the network of `key` last has ended: past ``idleNetworks`` the
    /// networks no link paints with are freed.
    func finishedPainting(with key: NetworkKey?) {
        state.withLock { $0.networks.paint(with: nil, insteadOf: key) }
    }

    /// The compiled networks kept (tests).
    var keptNetworkCount: Int { state.withLock { $0.networks.count } }

    /// The style code of `picture` (``StyleModel/predictor``'s input size: see ``UploadedStyle``),
    /// or why the predictor cannot run.
    func code(of picture: Frame) -> Result<[Float], StyleUnavailable> {
        let side = StyleModel.predictorSide
        precondition(picture.width == side && picture.height == side, "a style picture of \(picture.width)x\(picture.height)")
        return turns.withTurn { state.withLock { state in
            Result { () throws(StyleUnavailable) in
                let network = try compiled(NetworkKey(model: .predictor, size: NetworkSize(width: side, height: side)), &state)
                StyleColor.rgb(from: picture, into: network.input.baseAddress!)
                let code = try network.run().get()
                return Array(UnsafeBufferPointer(start: code, count: StyleModel.arbitrary.styleCount))
            }
        } }
    }

    /// The network of `key`: kept from before, or compiled now (under the lock).
    private func compiled(_ key: NetworkKey, _ state: inout State) throws(StyleUnavailable) -> StyleNetwork {
        if let network = state.networks.network(for: key) { return network }
        let size = key.size
        let network = try StyleNetwork(key.model, runtime: try loaded(&state), width: size.width, height: size.height, threads: threads,
                                       slowdown: slowdown)
        state.networks.insert(network, for: key)
        return network
    }

    /// The network's size for frames of `width × height`: the network's height (fewer lines for a
    /// smaller frame), the frame's shape, multiples of 4.
    private func networkSize(forFrame width: Int, _ height: Int, _ state: inout State) throws(StyleUnavailable) -> NetworkSize {
        let lines = max(4, min(try calibrated(&state), height / 4 * 4))
        return NetworkSize(width: Self.width(forHeight: lines, aspect: Double(width) / Double(height)), height: lines)
    }

    /// ``networkSize(forFrame:_:_:)``, calibrating first if need be.
    func networkSize(forFrame width: Int, _ height: Int) -> Result<NetworkSize, StyleUnavailable> {
        state.withLock { state in
            Result { () throws(StyleUnavailable) in try networkSize(forFrame: width, height, &state) }
        }
    }

    /// Hands a run at `height` to the chooser; a height it chooses is compiled next.
    private func choose(after run: Duration, at height: Int, _ state: inout State) {
        guard !state.compiling, state.upgrade == nil, height == state.height,
              let move = state.chooser?.note(run, at: height, now: ContinuousClock.now) else { return }
        state.upgrade = move.height
        Log.info("style: the network's runs at \(height) lines take \(Int(move.median.seconds * 1000)) ms (median of a "
                 + "second; budget \(Int(Self.frameBudget.seconds * 1000))): moving to \(move.height) lines")
    }

    /// Notes one network run of `duration` (for ``averageRun``).
    private func record(run duration: Duration) {
        runs.add(1, ordering: .relaxed)
        runNanoseconds.add(Int(duration.seconds * 1e9), ordering: .relaxed)
    }

    /// The network runs so far (beside the picture: the style's refreshes, over every link).
    public var runCount: Int { runs.load(ordering: .relaxed) }

    /// The mean time of the network runs so far, the filter's own work excluded; nil before any.
    public var averageRun: Duration? {
        let count = runs.load(ordering: .relaxed)
        return count == 0 ? nil : .nanoseconds(runNanoseconds.load(ordering: .relaxed) / count)
    }

    /// A width that keeps `aspect` at `height`, a multiple of 4.
    static func width(forHeight height: Int, aspect: Double) -> Int {
        max(4, Int((Double(height) * aspect / 4).rounded()) * 4)
    }

    /// The runtime, loaded now if it was not before (under the lock); a failure is kept.
    private func loaded(_ state: inout State) throws(StyleUnavailable) -> OpenVINORuntime {
        if let runtime = state.runtime { return runtime }
        if let failure = state.failure { throw failure }
        do throws(StyleUnavailable) {
            let runtime = try OpenVINORuntime(root: root)
            state.runtime = runtime
            return runtime
        } catch {
            state.failure = error
            throw error
        }
    }

    /// The height, calibrated now if it was not fixed or calibrated before (under the lock).
    ///
    /// The smallest height first: the cheapest to compile and run. The first styled picture waits
    /// only for the runtime, that network and its timing: the network styles at that height at
    /// once, and a larger height that fits (``State/upgrade``) is compiled next, outside the lock,
    /// and taken when it is ready.
    private func calibrated(_ state: inout State) throws(StyleUnavailable) -> Int {
        defer { if state.height != nil || state.failure != nil { settled.store(true, ordering: .releasing) } }
        if let height = state.height {
            _ = try loaded(&state)
            return height
        }
        if let failure = state.failure { throw failure }
        do throws(StyleUnavailable) {
            let smallest = Self.heights[Self.heights.count - 1]
            let runtime = try loaded(&state)
            let cost = try timedRun(runtime, height: smallest, into: &state.networks)
            let calibration = StyleCalibration(lines: smallest, run: cost)
            measured.withLock { $0 = calibration }
            let fits = Self.heights.first { height in
                cost.seconds * Double(height * height) / Double(smallest * smallest) <= Self.frameBudget.seconds
            } ?? smallest
            state.height = smallest
            state.upgrade = fits == smallest ? nil : fits
            state.chooser = StyleHeightChooser(heights: Self.heights, budget: Self.frameBudget)
            Log.info((fits == smallest ? "style: the network runs at \(fits) lines"
                                       : "style: the network runs at \(smallest) lines until it is compiled at \(fits)")
                     + "; the style refreshes up to \(calibration.refreshHz) times a second beside the picture",
                     ["lines": .int(smallest), "run_ms": .double(calibration.runMilliseconds), "refresh_hz": .double(calibration.refreshHz)])
            return smallest
        } catch {
            state.failure = error
            Log.error("style: the network cannot run: \(error)")
            throw error
        }
    }

    /// Starts compiling the height the calibration chose, if one waits, on a thread of its own.
    private func startUpgrade(_ state: inout State) {
        guard let height = state.upgrade.take() else { return }
        state.compiling = workers.start("style-compile") { [self] in upgrade(to: height) }
    }

    /// Compiles the network at `height` and runs it once (OpenVINO's first run is slow), outside
    /// the lock — frames go on being styled at the height before meanwhile — then makes it the
    /// height styled from the next frame on. A failure keeps the height before (said).
    private func upgrade(to height: Int) {
        defer { state.withLock { $0.compiling = false; $0.chooser?.restart() } }
        guard let runtime = state.withLock({ $0.runtime }) else { return }
        do throws(StyleUnavailable) {
            let (key, network) = try warmedNetwork(runtime, height: height)
            let calibration = StyleCalibration(lines: height, run: try network.fastestOfTwoRuns())
            state.withLock { state in
                state.networks.keep { $0.size.height == height }
                state.networks.insert(network, for: key)
                state.height = height
            }
            measured.withLock { $0 = calibration }
            Log.info("style: the network runs at \(height) lines; the style refreshes up to \(calibration.refreshHz) times a second "
                     + "beside the picture", ["lines": .int(height), "run_ms": .double(calibration.runMilliseconds),
                                              "refresh_hz": .double(calibration.refreshHz)])
        } catch {
            Log.warning("style: the network stays at \(state.withLock { $0.height } ?? 0) lines: \(error)")
        }
    }

    /// The shipped styles' network compiled for a 16:9 picture `height` lines high and run once
    /// (OpenVINO's first run is slow), with its key.
    private func warmedNetwork(_ runtime: OpenVINORuntime, height: Int) throws(StyleUnavailable) -> (NetworkKey, StyleNetwork) {
        let size = NetworkSize(width: Self.width(forHeight: height, aspect: 16.0 / 9), height: height)
        let network = try StyleNetwork(shippedModel, runtime: runtime, width: size.width, height: size.height, threads: threads,
                                       slowdown: slowdown)
        PaintingStyle.shipped(0).load(into: network)
        _ = try network.run().get()
        return (NetworkKey(model: shippedModel, size: size), network)
    }

    /// Compiles the network for a 16:9 picture `height` lines high (kept in `networks`) and
    /// returns its faster of two runs after one to warm up (``StyleNetwork/fastestOfTwoRuns()``).
    private func timedRun(_ runtime: OpenVINORuntime, height: Int,
                          into networks: inout KeptNetworks<NetworkKey, StyleNetwork>) throws(StyleUnavailable) -> Duration {
        let (key, network) = try warmedNetwork(runtime, height: height)
        networks.insert(network, for: key)
        return try network.fastestOfTwoRuns()
    }
}
