import Foundation

/// The `comment` command (v1 addition): `action` add, edit, resolve, delete or show, and its fields.
/// Every value is checked here, and a bad one is `invalid_argument` naming the field as the
/// client wrote it (`comment.drawing[3].points[7]`): a drawing comes from a page's pen, so the
/// message says which point of which shape is wrong.
extension CommandFields {
    /// `comment`: the action and its fields.
    func comment() throws(ProtocolError) -> CommentCommand {
        switch try choice("action", of: ["add", "edit", "resolve", "delete", "show"]) {
        case "add":
            let text = try commentText(required: false) ?? ""
            let drawing = try commentDrawing() ?? []
            guard !text.isEmpty || !drawing.isEmpty else { throw bad("text", "text or a drawing: a comment needs one") }
            return .add(place: try commentPlace(), duration: try commentDuration(), text: text, drawing: drawing)
        case "edit":
            let id = try commentID()
            let text = try commentText(required: false), drawing = try commentDrawing()
            guard text != nil || drawing != nil else { throw bad("text", "the new text or drawing (edit changes one of them)") }
            return .edit(id: id, text: text, drawing: drawing)
        case "resolve":
            return .resolve(id: try commentID(), resolved: try boolean("resolved") ?? true)
        case "delete":
            return .delete(id: try commentID())
        default:
            return .show(id: try commentID())
        }
    }

    /// `comment.comment`: the id of the comment it changes.
    private func commentID() throws(ProtocolError) -> String {
        let id = try string("comment")
        guard (1...CommentLimits.maximumIDLength).contains(id.utf8.count),
              id.utf8.allSatisfy({ $0 == 0x2D || $0 == 0x5F || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) })
        else { throw bad("comment", "a comment's id (1…\(CommentLimits.maximumIDLength) letters, digits, - or _)", got: .string(id)) }
        return id
    }

    /// `frame` (a whole number ≥ 0) or `position` (seconds ≥ 0), exactly one of them.
    private func commentPlace() throws(ProtocolError) -> CommentPlace {
        switch (fields["frame"], fields["position"]) {
        case (let frame?, nil):
            guard case .number(let number) = frame, number.value.isFinite, number.value >= 0, number.value <= 1e9,
                  number.value == number.value.rounded() else { throw bad("frame", "a frame's number (an integer in 0…1000000000)", got: frame) }
            return .frame(Int(number.value))
        case (nil, let position?):
            return .position(try seconds("position", got: position))
        case (nil, nil):
            throw bad("frame", "the frame (or the position in seconds) the comment is pinned to")
        default:
            throw bad("position", "left out when frame is given (one of frame and position)")
        }
    }

    /// `duration`: a range's length in seconds (> 0), or nil (one frame).
    private func commentDuration() throws(ProtocolError) -> Double? {
        guard let value = fields["duration"], value != .null else { return nil }
        let duration = try seconds("duration", got: value)
        guard duration > 0 else { throw bad("duration", "a range's length in seconds, more than 0", got: value) }
        return duration
    }

    private func seconds(_ key: String, got value: JSONValue) throws(ProtocolError) -> Double {
        guard case .number(let number) = value, number.value.isFinite, number.value >= 0, number.value <= 1e9 else {
            throw bad(key, "a number of seconds in 0…1000000000", got: value)
        }
        return number.value
    }

    /// `text`: at most ``CommentLimits/maximumText`` characters, no control characters but line
    /// breaks and tabs; trimmed. Nil when absent (and not `required`).
    private func commentText(required isRequired: Bool) throws(ProtocolError) -> String? {
        guard let value = fields["text"] else {
            if isRequired { throw bad("text", "the comment's text") }
            return nil
        }
        guard case .string(let raw) = value else { throw bad("text", "a string", got: value) }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= CommentLimits.maximumText else {
            throw bad("text", "at most \(CommentLimits.maximumText) characters, got \(text.count)")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }) else {
            throw bad("text", "text without control characters (line breaks and tabs are fine)")
        }
        return text
    }

    /// `drawing`: at most ``CommentLimits/maximumShapes`` shapes of at most
    /// ``CommentLimits/maximumPoints`` points in all; nil when absent.
    private func commentDrawing() throws(ProtocolError) -> [CommentShape]? {
        guard let value = fields["drawing"] else { return nil }
        guard case .array(let items) = value else { throw bad("drawing", "an array of shapes", got: value) }
        guard items.count <= CommentLimits.maximumShapes else {
            throw bad("drawing", "at most \(CommentLimits.maximumShapes) shapes, got \(items.count)")
        }
        var shapes: [CommentShape] = []
        var points = 0
        for (index, item) in items.enumerated() {
            let shape = try commentShape(item, field: "drawing[\(index)]")
            points += shape.points.count
            guard points <= CommentLimits.maximumPoints else {
                throw bad("drawing", "at most \(CommentLimits.maximumPoints) points in all its shapes, got more at shape \(index)")
            }
            shapes.append(shape)
        }
        return shapes
    }

    private func commentShape(_ value: JSONValue, field: String) throws(ProtocolError) -> CommentShape {
        guard case .object(let shape) = value else { throw bad(field, "a shape {kind, points, color, width}", got: value) }
        let kinds = CommentShape.Kind.allCases.map(\.rawValue)
        guard case .string(let name)? = shape["kind"], let kind = CommentShape.Kind(rawValue: name) else {
            throw bad(field + ".kind", "one of " + kinds.joined(separator: ", "), got: shape["kind"] ?? .null)
        }
        guard case .array(let items)? = shape["points"], kind.pointCount.contains(items.count) else {
            let count = kind == .freehand ? "2 or more" : "2"
            throw bad(field + ".points", "\(count) points [x, y] for a \(name)", got: shape["points"] ?? .null)
        }
        var points: [[Double]] = []
        points.reserveCapacity(items.count)
        for (index, item) in items.enumerated() { points.append(try unitPoint(item, field: "\(field).points[\(index)]")) }
        guard case .string(let color)? = shape["color"], Self.isColor(color) else {
            throw bad(field + ".color", "a color \"#rrggbb\"", got: shape["color"] ?? .null)
        }
        let range = CommentShape.widthRange
        guard case .number(let width)? = shape["width"], width.value.isFinite, range.contains(width.value) else {
            throw bad(field + ".width", "a stroke width in \(range.lowerBound)…\(range.upperBound) of the picture's width", got: shape["width"] ?? .null)
        }
        return CommentShape(kind: kind, points: points, color: color.lowercased(), width: width.value)
    }

    /// `[x, y]`, both in 0…1.
    private func unitPoint(_ value: JSONValue, field: String) throws(ProtocolError) -> [Double] {
        guard case .array(let pair) = value, pair.count == 2, case .number(let x) = pair[0], case .number(let y) = pair[1],
              x.value.isFinite, y.value.isFinite, (0...1).contains(x.value), (0...1).contains(y.value) else {
            throw bad(field, "a point [x, y] with both in 0…1", got: value)
        }
        return [x.value, y.value]
    }

    /// `#` and six hexadecimal digits.
    static func isColor(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return utf8.count == 7 && utf8[0] == 0x23
            && utf8.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) }
    }

    private func bad(_ key: String, _ expected: String, got value: JSONValue) -> ProtocolError {
        invalidArgument(key, expected, got: value)
    }

    private func bad(_ key: String, _ expected: String) -> ProtocolError {
        ProtocolError(code: .invalidArgument, message: "\(type).\(key) must be \(expected)")
    }
}
