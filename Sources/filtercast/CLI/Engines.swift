import Foundation
import Logging
import MatteKit
import StyleKit

/// The networks that run beside the filters — the style network (``StyleEngine``) and the person
/// matte (``MatteEngine``) — made once by each command that filters (serve, snapshot, bench,
/// filters) from the environment and its options, and handed to what uses them: the catalog and
/// the style pictures' folder (``StyleOptions``), `serve`'s warm-up, `bench`'s figures. Nothing
/// else reads their variables, and no engine is kept process-wide. Making them loads nothing: a
/// runtime or a network that is not laid out is a failure kept here, said where the catalog is made.
struct Engines {
    /// The variables read here, which are no option's: `serve` knows them (no "unknown variable"
    /// warning) and its help lists them.
    static let variables = [
        VariableSpec(name: OpenVINORuntime.rootVariable,
                     help: "The folder of the OpenVINO runtime and the networks (default: openvino beside the executable or up to two folders up, as make deps lays out .build/openvino); a folder without them turns the style and person matte filters off."),
        VariableSpec(name: styleNetworkVariable,
                     help: "float32: the shipped styles are painted with the float32 network the int8 one was quantized from (what bench --style-network float32 does)."),
        VariableSpec(name: styleSlowdownVariable,
                     help: "For benchmarks: every style network run takes this many times as long (1…20, the extra busy on its thread), a slower processor's network on this one."),
    ]
    static let styleNetworkVariable = "FILTERCAST_STYLE_NETWORK"
    static let styleSlowdownVariable = "FILTERCAST_STYLE_SLOWDOWN"

    let style: Result<StyleEngine, StyleUnavailable>
    let matte: Result<MatteEngine, StyleUnavailable>

    /// The engines of the runtime `environment` names (``OpenVINORuntime/defaultRoot(environment:)``),
    /// the style engine painting the shipped styles with `styleNetwork`, else with the network
    /// `FILTERCAST_STYLE_NETWORK` names (int8 unless it is `float32`), slowed down as
    /// `FILTERCAST_STYLE_SLOWDOWN` says (a value outside 1…20 is said and ignored); `stylePerFrame`:
    /// every frame waits for its own stylization (`bench --against-per-frame`'s reference).
    init(environment: [String: String] = ProcessInfo.processInfo.environment, styleNetwork: StyleEngine.ShippedNetwork? = nil,
         stylePerFrame: Bool = false) {
        guard let root = OpenVINORuntime.defaultRoot(environment: environment) else {
            let missing = StyleUnavailable(description: "no OpenVINO runtime found (make deps lays it out in "
                + ".build/openvino; \(OpenVINORuntime.rootVariable) names another folder)")
            style = .failure(missing)
            matte = .failure(missing)
            return
        }
        let network = styleNetwork ?? (environment[Self.styleNetworkVariable] == "float32" ? .float32 : .int8)
        let slowdown = Self.slowdown(environment[Self.styleSlowdownVariable])
        style = Result { () throws(StyleUnavailable) in
            try StyleEngine(root: root, network: network, slowdown: slowdown, perFrame: stylePerFrame)
        }
        matte = Result { () throws(StyleUnavailable) in try MatteEngine(root: root) }
    }

    /// The slowdown `value` says: a number in 1…20; otherwise 1, with a warning.
    private static func slowdown(_ value: String?) -> Double {
        guard let value else { return 1 }
        guard let factor = Double(value), (1...20).contains(factor) else {
            Log.warning("\(styleSlowdownVariable) must be a number in 1…20, got '\(value)': ignored")
            return 1
        }
        return factor
    }

    /// Ends the style network's threads (the links' workers, a warm-up, a compile) before the
    /// process exits, within `bound`: OpenVINO torn down by `exit` under a run or a compile still
    /// going crashes (SIGSEGV). A worker ends after its run (milliseconds); a compile cannot be
    /// cut short, so a stop in the first seconds after start may wait for the calibration's.
    func stop(within bound: Duration) {
        guard case .success(let engine) = style else { return }
        engine.stop(within: bound)
    }
}
