internal import COpenVINO
import Foundation

/// A ``StyleModel`` compiled for one picture size: its picture input (RGB in 0…1, laid out as the
/// model says) and its style input, if it has one; its first output is laid out as the picture
/// input (a styled picture in 0…1, values may stray a little outside; the predictor's style code).
/// The input buffers are ours, allocated once; OpenVINO reads them in place.
///
/// Not thread-safe: one caller at a time — ``StyleEngine`` hands it out only under its lock, which
/// is why it may be `@unchecked Sendable`.
final class StyleNetwork: @unchecked Sendable {
    let model: StyleModel
    let width: Int
    let height: Int
    /// Each run takes this many times as long as OpenVINO's (≥ 1; the extra is a busy loop on the
    /// calling thread): benchmarks emulate a slower processor's network, calibration included.
    let slowdown: Double
    /// RGB of `width × height` pixels, laid out as ``StyleModel/layout``.
    let input: UnsafeMutableBufferPointer<Float>
    /// What the style input reads (empty for a model without one).
    let style: UnsafeMutableBufferPointer<Float>
    private let runtime: OpenVINORuntime
    private let compiled: OpaquePointer
    private let request: OpaquePointer
    private var tensors: [OpaquePointer] = []

    /// Reads and compiles `model` for `width × height` (multiples of 4: the networks downsample by
    /// 4) on the CPU with `threads` inference threads, latency first, f32, threads not pinned (the
    /// decode and encode threads share the cores).
    init(_ model: StyleModel, runtime: OpenVINORuntime, width: Int, height: Int, threads: Int,
         slowdown: Double = 1) throws(StyleUnavailable) {
        precondition(width % 4 == 0 && height % 4 == 0 && width > 0 && height > 0, "network size \(width)x\(height)")
        precondition(slowdown >= 1, "network slowdown \(slowdown)")
        self.model = model
        self.slowdown = slowdown
        self.runtime = runtime
        self.width = width
        self.height = height
        let api = runtime.api
        let read = try runtime.readModel(named: model.file)
        defer { api.ov_model_free!(read) }
        var shape = ov_partial_shape_t()
        let dims: [Int64] = model.layout == .planar ? [1, 3, Int64(height), Int64(width)] : [1, Int64(height), Int64(width), 3]
        var reshaped = dims
        try runtime.check(api.ov_partial_shape_create_static!(4, &reshaped, &shape), "make a shape")
        defer { api.ov_partial_shape_free!(&shape) }
        try runtime.check(api.ov_model_reshape_input_by_name!(read, model.pictureInput, shape), "reshape to \(width)x\(height)")
        compiled = try runtime.compile(read, threads: threads, name: "the style network")
        var request: OpaquePointer?
        try runtime.check(api.ov_compiled_model_create_infer_request!(compiled, &request), "make an infer request")
        self.request = request!
        input = .allocate(capacity: 3 * width * height)
        input.initialize(repeating: 0)
        style = .allocate(capacity: model.styleCount)
        style.initialize(repeating: 0)
        try bind(model.pictureInput, input, dims: dims)
        if let styleInput = model.styleInput { try bind(styleInput.name, style, dims: styleInput.shape) }
    }

    deinit {
        let api = runtime.api
        tensors.forEach { api.ov_tensor_free!($0) }
        api.ov_infer_request_free!(request)
        api.ov_compiled_model_free!(compiled)
        input.deallocate()
        style.deallocate()
    }

    private func bind(_ name: String, _ buffer: UnsafeMutableBufferPointer<Float>, dims: [Int64]) throws(StyleUnavailable) {
        let tensor = try runtime.tensor(over: buffer, dims: dims)
        tensors.append(tensor)
        try runtime.check(runtime.api.ov_infer_request_set_tensor!(request, name, tensor), "set \(name)")
    }

    /// Runs the network on ``input`` and ``style``; the result, laid out as ``input``, is valid until
    /// the next run. OpenVINO's message if the run failed.
    func run() -> Result<UnsafePointer<Float>, StyleUnavailable> {
        guard slowdown > 1 else { return runtime.infer(request, name: "the style network") }
        let clock = ContinuousClock(), start = clock.now
        let result = runtime.infer(request, name: "the style network")
        let inferred = clock.now, end = inferred + (inferred - start) * (slowdown - 1)
        while clock.now < end {}
        return result
    }

    /// The faster of two runs (of a warmed network): the least disturbed by whatever else the
    /// machine does meanwhile.
    func fastestOfTwoRuns() throws(StyleUnavailable) -> Duration {
        let clock = ContinuousClock()
        var fastest = Duration.seconds(60)
        for _ in 0..<2 {
            let start = clock.now
            _ = try run().get()
            fastest = min(fastest, clock.now - start)
        }
        return fastest
    }
}
