import COpenVINO
import StyleKit

/// A ``MatteModel`` compiled once for the process (``MatteEngine`` keeps it): each thread that
/// makes mattes makes its own infer request from it (``MatteNetwork``).
///
/// Thread safety: OpenVINO's compiled model makes requests from any thread and is not otherwise
/// used, so it is shared freely.
final class CompiledMatteModel: @unchecked Sendable {
    let model: MatteModel
    let runtime: OpenVINORuntime
    let compiled: OpaquePointer

    /// Reads and compiles `model` with one inference thread: the goal is a few milliseconds on
    /// one core, and the other core decodes and encodes meanwhile.
    init(_ model: MatteModel, runtime: OpenVINORuntime) throws(StyleUnavailable) {
        self.model = model
        self.runtime = runtime
        let read = try runtime.readModel(named: model.file)
        defer { runtime.api.ov_model_free!(read) }
        compiled = try runtime.compile(read, threads: 1, name: model.file)
    }

    deinit { runtime.api.ov_compiled_model_free!(compiled) }
}

/// One thread's infer request of a ``CompiledMatteModel``, its input bound to a buffer of ours
/// (allocated once; OpenVINO reads it in place).
///
/// Not thread-safe: it belongs to one ``MatteStage`` (one thread).
final class MatteNetwork {
    let model: MatteModel
    /// The picture: `height × width × 3` floats, R, G, B of each pixel together, 0…1.
    let input: UnsafeMutableBufferPointer<Float>
    private let compiled: CompiledMatteModel
    private let request: OpaquePointer
    private var tensor: OpaquePointer?

    init(_ compiled: CompiledMatteModel) throws(StyleUnavailable) {
        let runtime = compiled.runtime, model = compiled.model
        var request: OpaquePointer?
        try runtime.check(runtime.api.ov_compiled_model_create_infer_request!(compiled.compiled, &request), "make an infer request")
        self.model = model
        self.compiled = compiled
        self.request = request!
        input = .allocate(capacity: 3 * model.width * model.height)
        input.initialize(repeating: 0)
        // From here deinit frees what was made, should the binding fail.
        let tensor = try runtime.tensor(over: input, dims: [1, Int64(model.height), Int64(model.width), 3])
        self.tensor = tensor
        try runtime.check(runtime.api.ov_infer_request_set_tensor!(request, MatteModel.inputName, tensor), "set the input")
    }

    deinit {
        let api = compiled.runtime.api
        if let tensor { api.ov_tensor_free!(tensor) }
        api.ov_infer_request_free!(request)
        input.deallocate()
    }

    /// Runs the network on ``input``: the matte, `height × width` floats in 0…1 row-major, valid
    /// until the next run; OpenVINO's message if the run failed.
    func run() -> Result<UnsafePointer<Float>, StyleUnavailable> {
        compiled.runtime.infer(request, name: model.file)
    }
}
