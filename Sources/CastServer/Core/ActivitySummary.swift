import CastProtocol
import FilterKit

/// How a change reads in the activity: its command's type (`what`), the key a burst of it
/// coalesces by, and a sentence for people. Commands this file does not know (added later) still
/// get their type and a plain sentence, so every change is attributed.
extension SessionCommand {
    /// The type a client sends it by (`setFilter` for a chain or a look too).
    var what: String {
        switch self {
        case .setFilterChain, .applyLook: return "setFilter"
        default:
            // The case's name: the wire type for every other command, known or added later.
            let described = String(describing: self)
            return String(described.prefix { $0 != "(" })
        }
    }

    /// Changes made by dragging a control (a parameter's slider, the seek bar, the compare
    /// divider, repeated steps): those with the same key from one person coalesce into one entry.
    var burstKey: String? {
        switch self {
        case .setParams(let params, let index, let target):
            return "setParams \(target) \(index ?? 0) " + params.keys.sorted().joined(separator: ",")
        case .seek, .step, .setCompare: return what
        default: return nil
        }
    }

    /// "Ana switched the look to sepia": the change `name` made, `chain` naming the program's
    /// filters after it.
    func summary(by name: String, chain: [String]) -> String {
        "\(name) " + sentence(chain: chain)
    }

    private func sentence(chain: [String]) -> String {
        switch self {
        case .setFilter(let filter, _, let target): return "switched the look\(target.suffix) to \(filter)"
        case .setFilterChain(let links, let target):
            return "switched the look\(target.suffix) to " + (links.isEmpty ? "none" : links.map(\.name).joined(separator: " + "))
        case .applyLook(let look, let target): return "applied the look \(look)\(target.suffix)"
        case .setParams(let params, let index, let target):
            let link = target == .program && (index ?? 0) < chain.count ? chain[index ?? 0] + " " : ""
            let values = params.keys.sorted().map { "\($0) \(params[$0]!)" }.joined(separator: ", ")
            return "set \(link)\(values)\(target.suffix)"
        case .take: return "took the preview on air"
        case .setCompare(let change): return change.on ? "showed the compare view" : "hid the compare view"
        case .play: return "pressed play"
        case .pause: return "paused"
        case .seek(let position): return "jumped to \(Self.timecode(position))"
        case .step(let frames): return "stepped \(abs(frames)) frame\(abs(frames) == 1 ? "" : "s") \(frames < 0 ? "back" : "forward")"
        case .record(let start, _): return start ? "started recording" : "stopped recording"
        case .open(let source, _): return "opened \(source)"
        case .delete(let source): return "deleted \(source)"
        case .share(let request): return request == nil ? "stopped sharing a camera" : "shared a camera"
        case .saveLook(let look, _): return "saved the look \(look)"
        case .deleteLook(let look): return "deleted the look \(look)"
        case .present(let take, _): return take ? "presents" : "stopped presenting"
        default: return "sent \(what)"
        }
    }

    /// `seconds` as m:ss.t.
    private static func timecode(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let secondsPart = tenths % 600
        return "\(tenths / 600):\(secondsPart < 100 ? "0" : "")\(secondsPart / 10).\(secondsPart % 10)"
    }
}

extension ChainTarget {
    /// " in the preview" for the preview's chain; nothing for the program's.
    fileprivate var suffix: String { self == .preview ? " in the preview" : "" }
}
