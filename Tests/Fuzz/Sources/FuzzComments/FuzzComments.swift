import CastProtocol
import FilterKit
import Foundation
import FuzzMessages

/// One client text message (seeded with `comment` commands), as the server handles a comment:
/// parse; what passes lies within the limits (text, shapes, points, each point on the 0…1
/// plane, widths, colours, points per kind); a comment made of it is written and read back as the
/// same comment (its file); its drawing burns into a 40×30 frame (AddressSanitizer watches the
/// planes). A refusal encodes as valid JSON.
func fuzzComments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard case .session(.comment(let command)) = parsedMessage(data, size)?.command else { return 0 }
    switch command {
    case .add(let place, let duration, let text, let drawing):
        if case .frame(let frame) = place { precondition(frame >= 0, "frame \(frame) escaped validation") }
        if case .position(let position) = place { precondition(position.isFinite && position >= 0, "position \(position) escaped validation") }
        precondition(duration.map { $0.isFinite && $0 > 0 } ?? true, "duration \(String(describing: duration)) escaped validation")
        check(text: text, drawing: drawing)
        roundTrip(text: text, drawing: drawing, duration: duration)
    case .edit(let id, let text, let drawing):
        precondition(!id.isEmpty && id.utf8.count <= CommentLimits.maximumIDLength, "id \(id) escaped validation")
        check(text: text ?? "", drawing: drawing ?? [])
    case .resolve(let id, _), .delete(let id), .show(let id):
        precondition(!id.isEmpty && id.utf8.count <= CommentLimits.maximumIDLength, "id \(id) escaped validation")
    }
    return 0
}

private func check(text: String, drawing: [CommentShape]) {
    precondition(text.count <= CommentLimits.maximumText, "text of \(text.count) characters escaped validation")
    precondition(!text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" },
                 "a control character escaped validation")
    precondition(drawing.count <= CommentLimits.maximumShapes, "\(drawing.count) shapes escaped validation")
    precondition(drawing.reduce(0) { $0 + $1.points.count } <= CommentLimits.maximumPoints, "too many points escaped validation")
    for shape in drawing {
        precondition(shape.kind == .freehand ? shape.points.count >= 2 : shape.points.count == 2, "\(shape.kind) of \(shape.points.count) points")
        precondition(shape.points.allSatisfy { $0.count == 2 && $0.allSatisfy { $0.isFinite && (0...1).contains($0) } }, "a point off the plane")
        precondition(CommentShape.widthRange.contains(shape.width), "width \(shape.width) escaped validation")
        precondition(shape.color.utf8.count == 7 && shape.color.first == "#" && UInt32(shape.color.dropFirst(), radix: 16) != nil,
                     "colour \(shape.color) escaped validation")
    }
}

/// The comment as the comments file keeps it reads back the same; its drawing burns in.
private func roundTrip(text: String, drawing: [CommentShape], duration: Double?) {
    let comment = Comment(id: "c1", author: Author(id: "p1", name: "Ana"), at: "2026-12-05T09:00:00.000Z", frame: 1, position: 0.04,
                          duration: duration, text: text, drawing: drawing, chain: [FilterLinkRequest(name: "sepia", params: ["intensity": 0.5])])
    guard let encoded = try? JSONEncoder().encode(comment) else { preconditionFailure("a comment does not encode") }
    precondition((try? JSONDecoder().decode(Comment.self, from: encoded)) == comment, "a comment does not read back as written")
    CommentDrawing.burn(drawing, into: frame)
}

nonisolated(unsafe) private let frame = Frame(width: 40, height: 30)
