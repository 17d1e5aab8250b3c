internal import COpenVINO
import Foundation

/// Why the style filter cannot run here: the runtime or a model is missing, or OpenVINO refused
/// (another CPU, a broken file). A missing runtime or model is said once at start, and the catalog
/// then has no `style`; one that fails to load is said at the first styled frame.
public struct StyleUnavailable: Error, CustomStringConvertible {
    public let description: String
}

/// OpenVINO's C API, loaded from a folder laid out by `make deps` (`deps/openvino.py`): `lib/` with
/// `libopenvino_c.so`, `models/` with the networks. One `ov_core` for the process.
///
/// Thread safety: OpenVINO's core may read and compile models from any thread; the runtime keeps
/// no other state, so it is shared freely.
final class OpenVINORuntime: @unchecked Sendable {
    let api: fc_openvino_api
    let core: OpaquePointer
    /// The folder the runtime was loaded from (its `models/` holds the networks).
    let root: URL

    /// Loads `root/lib/libopenvino_c.so` and makes a core.
    init(root: URL) throws(StyleUnavailable) {
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

    /// Where the runtime is looked for by default: `FILTERCAST_OPENVINO` when set (an empty folder
    /// there turns the style filter off), else an `openvino` folder beside the executable or one or
    /// two levels up — `.build/openvino` for `.build/<triple>/debug/filtercast` and for the test
    /// runner, `/opt/filtercast/openvino` for `/opt/filtercast/bin/filtercast`.
    static func defaultRoot(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let configured = environment["FILTERCAST_OPENVINO"] { return URL(fileURLWithPath: configured) }
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
    static func checkLaidOut(_ root: URL, model name: String) throws(StyleUnavailable) {
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
            throw StyleUnavailable(description: "no style network at \(path)")
        }
        return path
    }

    /// A model file of `root/models`, read (not compiled).
    func readModel(named name: String) throws(StyleUnavailable) -> OpaquePointer {
        let path = try Self.model(name, in: root)
        var model: OpaquePointer?
        try check(api.ov_core_read_model!(core, path, nil, &model), "read \(name)")
        return model!
    }

    /// Throws OpenVINO's own message when `status` is not OK.
    func check(_ status: ov_status_e, _ what: String) throws(StyleUnavailable) {
        guard status != OK else { return }
        throw StyleUnavailable(description: "OpenVINO could not \(what): \(Self.message(api, status))")
    }

    private static func message(_ api: fc_openvino_api, _ status: ov_status_e) -> String {
        let text = api.ov_get_last_err_msg!().map { String(cString: $0) } ?? ""
        return text.isEmpty ? "status \(status.rawValue)" : text
    }
}
