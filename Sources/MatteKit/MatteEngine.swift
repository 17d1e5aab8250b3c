import FilterKit
import Foundation
import Logging
import StyleKit
import Synchronization

/// The person matte, one per process (made by the executable, handed to the catalog: never a
/// global): MediaPipe's selfie segmentation through OpenVINO, each network compiled once (at its
/// first use) and kept; every thread that asks gets its own ``MatteStage`` (a thread-local one),
/// which makes each frame's matte once however many links of that thread's chains ask for it.
///
/// Whether the runtime and the networks are laid out decides whether the catalog offers the
/// filters that need a matte (``MatteCatalog``); nothing is loaded until a matte is asked for.
///
/// Thread safety: any thread may ask; loading and compiling are serialised by one lock, the mattes
/// themselves are made on the asking thread without it. A thread's stage lives until the thread
/// ends (and keeps the engine alive meanwhile).
public final class MatteEngine: Sendable {
    private struct State {
        var runtime: OpenVINORuntime?
        var compiled: [MatteModel: CompiledMatteModel] = [:]
        /// Why loading or compiling failed (then every matte fails).
        var failure: StyleUnavailable?
    }

    let root: URL
    private let state = Mutex(State())
    /// The key of each thread's ``MatteStage`` (released when the thread ends).
    private let stageKey: pthread_key_t
    private let costs = MatteCosts.Counters()

    /// The engine of the runtime at `root`, which must hold the library and both networks (they
    /// are loaded at the first matte). One per process is enough (each thread has its stage):
    /// the executable makes it once and hands it to the catalog (``MatteCatalog``).
    public init(root: URL) throws(StyleUnavailable) {
        for model in MatteModel.all { try OpenVINORuntime.checkLaidOut(root, model: model.file) }
        self.root = root
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { stage in
            if let stage { Unmanaged<MatteStage>.fromOpaque(stage).release() }
        }
        precondition(status == 0, "pthread_key_create: \(status)")
        stageKey = key
    }

    deinit { pthread_key_delete(stageKey) }

    /// The matte of `frame` (see ``Matte``: valid on this thread until its next matte of that
    /// size), made once per frame on this thread; why not if the network cannot run.
    public func matte(of frame: Frame) -> Result<Matte, StyleUnavailable> {
        stage().matte(of: frame)
    }

    /// Whether a matte would not wait for the runtime to load and a network to compile (done, or
    /// failed): until then a new link is better warmed in the background.
    public var isReady: Bool { state.withLock { !$0.compiled.isEmpty || $0.failure != nil } }

    /// The time the mattes made so far took, per frame; nil before any.
    public var averageCosts: MatteCosts? { costs.average }

    /// This thread's stage, made at its first matte.
    private func stage() -> MatteStage {
        if let stage = pthread_getspecific(stageKey) {
            return Unmanaged<MatteStage>.fromOpaque(stage).takeUnretainedValue()
        }
        let stage = MatteStage(engine: self)
        pthread_setspecific(stageKey, Unmanaged.passRetained(stage).toOpaque())
        return stage
    }

    /// `model` compiled: kept from before, or now (the runtime loaded first if need be); a
    /// failure is kept and said once.
    func compiled(_ model: MatteModel) throws(StyleUnavailable) -> CompiledMatteModel {
        try state.withLock { state -> Result<CompiledMatteModel, StyleUnavailable> in
            if let compiled = state.compiled[model] { return .success(compiled) }
            if let failure = state.failure { return .failure(failure) }
            do throws(StyleUnavailable) {
                if state.runtime == nil { state.runtime = try OpenVINORuntime(root: root) }
                let runtime = state.runtime!
                let compiled = try CompiledMatteModel(model, runtime: runtime)
                state.compiled[model] = compiled
                return .success(compiled)
            } catch {
                state.failure = error
                Log.error("person matte: the network cannot run: \(error)")
                return .failure(error)
            }
        }.get()
    }

    func record(prepare: Duration, network: Duration, refine: Duration) {
        costs.record(prepare: prepare, network: network, refine: refine)
    }
}
