import CastProtocol
import Foundation

/// A source's comments as files other tools read (`GET /api/comments?format=csv|edl`). Pure.
enum CommentExport {
    /// RFC 4180 CSV, a header line then one line per comment, oldest first: `id, author, at,
    /// frame, position, timecode, duration, resolved, text, shapes, chain` (`chain`: the filters'
    /// names joined by ` + `). Lines end in CRLF; a field with a comma, quote or line break is quoted.
    static func csv(_ comments: [Comment], fps: Double) -> String {
        let header = ["id", "author", "at", "frame", "position", "timecode", "duration", "resolved", "text", "shapes", "chain"]
        let rows = comments.map { comment in
            [comment.id, comment.author.name, comment.at, String(comment.frame), String(comment.position),
             timecode(frame: comment.frame, fps: fps), comment.duration.map { String($0) } ?? "",
             String(comment.resolved), comment.text, String(comment.drawing.count), comment.chain.map(\.name).joined(separator: " + ")]
        }
        return ([header] + rows).map { $0.map(quoted).joined(separator: ",") + "\r\n" }.joined()
    }

    private static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A CMX 3600 EDL of markers as DaVinci Resolve writes and imports them (Timeline > Import >
    /// Timeline Markers from EDL): one event per comment, oldest first, its source and record
    /// timecodes the comment's frame (non-drop frame, from 00:00:00:00 at the source's start,
    /// `fps` rounded to whole frames a second), out one frame later or at its range's end, then
    /// the marker line ` |C:ResolveColorBlue |M:NAME |D:FRAMES` — the note (the author and the
    /// text's first line; `|` becomes `/`), its colour (green once resolved) and its length in frames.
    static func edl(_ comments: [Comment], title: String, fps: Double) -> String {
        let rate = max(1, Int(fps.rounded()))
        var lines = ["TITLE: " + plain(title), "FCM: NON-DROP FRAME", ""]
        for (index, comment) in comments.enumerated() {
            let length = max(1, Int(((comment.duration ?? 0) * Double(rate)).rounded()))
            let start = timecode(frame: comment.frame, rate: rate), end = timecode(frame: comment.frame + length, rate: rate)
            lines.append(String(format: "%03d  001      V     C        ", index + 1) + "\(start) \(end) \(start) \(end)")
            let text = comment.text.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? ""
            let note = plain(comment.author.name + (text.isEmpty ? "" : ": " + text))
            let color = comment.resolved ? "ResolveColorGreen" : "ResolveColorBlue"
            lines.append(" |C:\(color) |M:\(note) |D:\(length)")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// `text` on one line, without the `|` that separates a marker's fields.
    private static func plain(_ text: String) -> String {
        String(text.map { $0 == "|" ? "/" : ($0.isNewline || $0 == "\t" ? " " : $0) })
    }

    /// `frame` as HH:MM:SS:FF at `fps` (rounded to whole frames a second).
    static func timecode(frame: Int, fps: Double) -> String { timecode(frame: frame, rate: max(1, Int(fps.rounded()))) }

    private static func timecode(frame: Int, rate: Int) -> String {
        let seconds = frame / rate
        return String(format: "%02d:%02d:%02d:%02d", seconds / 3600 % 100, seconds / 60 % 60, seconds % 60, frame % rate)
    }
}
