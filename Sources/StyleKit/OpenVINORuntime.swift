public import COpenVINO
import Foundation

/// Why the style filter cannot run here: the runtime or a model is missing, or OpenVINO refused
/// (another CPU, a broken file). A missing runtime or model is said once at start, and the catalog
/// then has no `style`; one that fails to load is said at the first styled frame.
public struct StyleUnavailable: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) {
        self.description = description
    }
}

/// OpenVINO's C API, loaded from a folder laid out by `make deps` (`deps/openvino.py`): `lib/` with
/// `libopenvino_c.so`, `models/` with the networks. One `ov_core` for the process. Public for the
/// other networks' kits (MatteKit), which call ``api`` themselves.
///
/// Thread safety: OpenVINO's core may read and compile models from any thread; the runtime keeps
/// no other state, so it is shared freely.
public final class OpenVINORuntime: @unchecked Sendable {
    public let api: fc_openvino_api
    public let core: OpaquePointer
    /// The folder the runtime was loaded from (its `models/` holds the networks).
    public let root: URL

    /// Loads `root/lib/libopenvino_c.so` and makes a core.
    public init(root: URL) throws(StyleUnavailable) {
        let library = try Self.library(in: root)
        var api = fc_openvino_api()
        if let reason = fc_openvino_load(library, &api) {
            throw StyleUnavailable(description: "OpenVINO at \(library) cannot load: \(String(cString: reason))")
        }
        var core: OpaquePointer?
        let status = api.ov_core_create!(&core)
        guard status == OK, let core else {
            throw StyleUnavailable(description: "OpenVINO cannot start: \(Self.message(api, status))")
        }
        self.api = api
        self.core = core
        self.root = root
    }

    deinit { api.ov_core_free!(core) }

    /// The environment variable that names the runtime's folder (``defaultRoot(environment:)``).
    public static let rootVariable = "FILTERCAST_OPENVINO"

    /// Where the runtime is looked for by default: `FILTERCAST_OPENVINO` in `environment` when set
    /// (an empty folder there turns the style and person matte filters off), else an `openvino`
    /// folder beside the executable or one or two levels up — `.build/openvino` for
    /// `.build/<triple>/debug/filtercast` and for the test runner, `/opt/filtercast/openvino` for
    /// `/opt/filtercast/bin/filtercast`. The executable passes the process's environment, once.
    public static func defaultRoot(environment: [String: String]) -> URL? {
        if let configured = environment[rootVariable] { return URL(fileURLWithPath: configured) }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("openvino")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("lib/libopenvino_c.so").path) {
                return candidate
            }
            folder.deleteLastPathComponent()
        }
        return nil
    }

    /// Throws unless `root` holds the library and the model `name`: whether the style filter can
    /// be offered, decided without loading anything.
    public static func checkLaidOut(_ root: URL, model name: String) throws(StyleUnavailable) {
        _ = try library(in: root)
        _ = try model(name, in: root)
    }

    /// The path of the C library in `root`, if it is there.
    private static func library(in root: URL) throws(StyleUnavailable) -> String {
        let library = root.appendingPathComponent("lib/libopenvino_c.so").path
        guard FileManager.default.fileExists(atPath: library) else {
            throw StyleUnavailable(description: "no OpenVINO runtime at \(library) (make deps lays it out)")
        }
        return library
    }

    /// The path of the model file `name` of `root/models`, if it is there.
    private static func model(_ name: String, in root: URL) throws(StyleUnavailable) -> String {
        let path = root.appendingPathComponent("models/\(name)").path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StyleUnavailable(description: "no network at \(path) (make deps lays it out)")
        }
        return path
    }

    /// A model file of `root/models`, read (not compiled).
    public func readModel(named name: String) throws(StyleUnavailable) -> OpaquePointer {
        let path = try Self.model(name, in: root)
        var model: OpaquePointer?
        try check(api.ov_core_read_model!(core, path, nil, &model), "read \(name)")
        return model!
    }

    /// `model` compiled for the CPU with `threads` inference threads, latency first, f32 (the CPU's
    /// bf16 default changes the networks' results), threads not pinned (the decode and encode threads
    /// share the cores). `name` says which network in an error.
    public func compile(_ model: OpaquePointer, threads: Int, name: String) throws(StyleUnavailable) -> OpaquePointer {
        // Keys as string literals: Swift 6 cannot read the ov_property_key_* globals.
        let settings = [("INFERENCE_NUM_THREADS", String(threads)), ("PERFORMANCE_HINT", "LATENCY"),
                        ("ENABLE_CPU_PINNING", "NO"), ("INFERENCE_PRECISION_HINT", "f32")]
        let strings = settings.map { (strdup($0.0)!, strdup($0.1)!) }
        defer { strings.forEach { free($0.0); free($0.1) } }
        var properties = strings.map { ov_property_t(key: $0.0, value: UnsafeRawPointer($0.1)) }
        var compiled: OpaquePointer?
        try check(api.ov_core_compile_model_props!(core, model, "CPU", properties.count, &properties, &compiled),
                  "compile \(name)")
        return compiled!
    }

    /// A tensor of f32 `dims` over `buffer` (read and written in place; the buffer must outlive it).
    public func tensor(over buffer: UnsafeMutableBufferPointer<Float>, dims: [Int64]) throws(StyleUnavailable) -> OpaquePointer {
        var shape = ov_shape_t()
        var dims = dims
        try check(api.ov_shape_create!(Int64(dims.count), &dims, &shape), "make a shape")
        defer { _ = api.ov_shape_free!(&shape) }
        var tensor: OpaquePointer?
        try check(api.ov_tensor_create_from_host_ptr!(F32, shape, buffer.baseAddress, &tensor), "wrap a buffer")
        return tensor!
    }

    /// Runs `request` and returns its first output's floats, valid until its next run; OpenVINO's
    /// message if the run failed. `name` says which network in an error.
    public func infer(_ request: OpaquePointer, name: String) -> Result<UnsafePointer<Float>, StyleUnavailable> {
        var output: OpaquePointer?
        var data: UnsafeMutableRawPointer?
        do throws(StyleUnavailable) {
            try check(api.ov_infer_request_infer!(request), "run \(name)")
            try check(api.ov_infer_request_get_output_tensor_by_index!(request, 0, &output), "get the output of \(name)")
            defer { api.ov_tensor_free!(output) }
            try check(api.ov_tensor_data!(output, &data), "read the output of \(name)")
        } catch {
            return .failure(error)
        }
        return .success(UnsafePointer(data!.assumingMemoryBound(to: Float.self)))
    }

    /// Throws OpenVINO's own message when `status` is not OK.
    public func check(_ status: ov_status_e, _ what: String) throws(StyleUnavailable) {
        guard status != OK else { return }
        throw StyleUnavailable(description: "OpenVINO could not \(what): \(Self.message(api, status))")
    }

    private static func message(_ api: fc_openvino_api, _ status: ov_status_e) -> String {
        let text = api.ov_get_last_err_msg!().map { String(cString: $0) } ?? ""
        return text.isEmpty ? "status \(status.rawValue)" : text
    }
}
