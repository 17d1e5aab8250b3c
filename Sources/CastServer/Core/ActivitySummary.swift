import CastProtocol
import FilterKit

/// How a change reads in the activity: the key a burst of it coalesces by, and a sentence for
/// people. Its `what` is the type the client sent it as (``ServerCore/apply(_:as:from:)``), not
/// read from the command here. Every command has its sentence: one added later fails to compile
/// until it says what it did.
extension SessionCommand {
    /// Changes made by dragging a control (a parameter's slider, the seek bar, the compare
    /// divider, repeated steps): those with the same key from one person coalesce into one entry.
    var burstKey: String? {
        switch self {
        case .setParams(let params, let index, let target):
            return "setParams \(target) \(index ?? 0) " + params.keys.sorted().joined(separator: ",")
        case .seek: return "seek"
        case .step: return "step"
        case .setCompare: return "setCompare"
        default: return nil
        }
    }

    /// "Ana switched the look to sepia": the change `name` made, `chain` naming the program's
    /// filters after it, `comment` the comment a `comment` command is about.
    func summary(by name: String, chain: [String], about comment: Comment? = nil) -> String {
        "\(name) " + sentence(chain: chain, about: comment)
    }

    private func sentence(chain: [String], about comment: Comment?) -> String {
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
        case .speed(let rate): return "set the speed to \(PlaybackRate.describe(rate.value))×"
        case .loop(let range): return range.map { "looped \(Self.timecode($0.in))–\(Self.timecode($0.out))" } ?? "ended the loop"
        case .point: return "pointed at the picture"
        case .comment(let command): return command.sentence(about: comment)
        }
    }

    /// `seconds` as m:ss.t.
    fileprivate static func timecode(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let secondsPart = tenths % 600
        return "\(tenths / 600):\(secondsPart < 100 ? "0" : "")\(secondsPart / 10).\(secondsPart % 10)"
    }
}

extension CommentCommand {
    /// What the command did to `comment` (the core always names it; without it, "a comment"):
    /// "commented at 0:12.4: “warmer”", "resolved the comment at 0:12.4".
    fileprivate func sentence(about comment: Comment?) -> String {
        let at = comment.map { " at " + SessionCommand.timecode($0.position) }
        let place = at.map { "the comment" + $0 } ?? "a comment"
        switch self {
        case .add(_, _, let text, _): return "commented\(at ?? "")" + (text.isEmpty ? " with a drawing" : ": " + Self.quoted(text))
        case .edit(_, let text, _): return "edited \(place)" + (text.map { ": " + Self.quoted($0) } ?? "")
        case .resolve(_, let resolved): return (resolved ? "resolved " : "reopened ") + place
        case .delete: return "deleted " + place
        case .show: return "showed " + place
        }
    }

    /// `text` in quotes, its first line cut at ``quotedLength`` characters.
    private static func quoted(_ text: String) -> String {
        let line = text.prefix { $0 != "\n" }
        let cut = line.count > quotedLength || line.count < text.count
        return "“" + line.prefix(quotedLength) + (cut ? "…" : "") + "”"
    }

    /// The most characters of a comment an activity entry quotes.
    static let quotedLength = 60
}

extension ChainTarget {
    /// " in the preview" for the preview's chain; nothing for the program's.
    fileprivate var suffix: String { self == .preview ? " in the preview" : "" }
}
