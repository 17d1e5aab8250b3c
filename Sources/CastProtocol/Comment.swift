import FilterKit

/// One shape of a comment's drawing, on the picture's 0…1 plane (x from the left, y from the
/// top): `{"kind", "points": [[x, y], …], "color": "#rrggbb", "width"}`. `width` is the stroke's,
/// as a part of the picture's width (``widthRange``). An arrow and a line go from their first
/// point to their second; a rect and an ellipse fill the box of their two points (outlines); a
/// freehand is the polyline through its points.
public struct CommentShape: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Equatable, Codable, CaseIterable {
        case arrow, line, rect, ellipse, freehand

        /// How many points the kind takes: exactly two, except a freehand's 2 or more.
        var pointCount: ClosedRange<Int> { self == .freehand ? 2...CommentLimits.maximumPoints : 2...2 }
    }

    public static let widthRange = 0.002...0.05

    public var kind: Kind
    public var points: [[Double]]
    public var color: String
    public var width: Double

    public init(kind: Kind, points: [[Double]], color: String, width: Double) {
        self.kind = kind
        self.points = points
        self.color = color
        self.width = width
    }

    /// `color` as red, green and blue (0…255): it is `#rrggbb` (the parser's check).
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8) {
        let value = UInt32(color.dropFirst(), radix: 16) ?? 0
        return (UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF))
    }
}

/// What one comment may hold, and how many a source keeps: every one a client can make the
/// server keep is bounded.
public enum CommentLimits {
    /// Characters of `text`.
    public static let maximumText = 2_000
    /// Shapes of one drawing.
    public static let maximumShapes = 100
    /// Points of one drawing, all its shapes together.
    public static let maximumPoints = 5_000
    /// Comments kept on one source; an `add` beyond is refused.
    public static let maximumPerSource = 1_000
    /// The longest comment id a client may name (ids the server makes are shorter).
    public static let maximumIDLength = 64
}

/// Where a new comment is pinned: a frame's number, or a position in seconds (the server turns
/// either into both, at the source's frame rate).
public enum CommentPlace: Sendable, Equatable {
    case frame(Int)
    case position(Double)
}

/// A `comment` command (v1 addition): add a comment to the source that plays, or change one the
/// sender wrote (the admin: anyone's). Checked by ``CommentParser``; whether the comment exists
/// and whose it is are the server's to check.
public enum CommentCommand: Sendable, Equatable {
    /// A new comment at `place`, covering `duration` seconds from there when it is a range.
    case add(place: CommentPlace, duration: Double?, text: String, drawing: [CommentShape])
    /// New text and/or drawing for comment `id` (nil: kept).
    case edit(id: String, text: String?, drawing: [CommentShape]?)
    /// Mark comment `id` resolved (or not).
    case resolve(id: String, resolved: Bool)
    case delete(id: String)
    /// Pause every viewer of the channel at comment `id` and show its drawing to all
    /// (`state.showing`) until the playhead moves.
    case show(id: String)

    /// The comment it is about (nil for `add`).
    public var commentID: String? {
        switch self {
        case .add: nil
        case .edit(let id, _, _), .resolve(let id, _), .delete(let id), .show(let id): id
        }
    }
}

/// One comment as the server keeps it and sends it (`comments.comments`, `GET /api/comments`,
/// the comments file): its id, who wrote it and when, the frame (and position, seconds) it is
/// pinned to, its range's `duration` (nil: one frame), the text and drawing, the program chain
/// in force when it was written (`chain`, as `setFilter.chain` takes it), and whether it is resolved.
public struct Comment: Sendable, Equatable, Codable {
    public var id: String
    public var author: Author
    /// When it was written, ISO-8601 UTC with milliseconds; `edited`: when last changed.
    public var at: String
    public var edited: String?
    public var frame: Int
    public var position: Double
    public var duration: Double?
    public var text: String
    public var drawing: [CommentShape]
    public var chain: [FilterLinkRequest]
    public var resolved: Bool

    public init(id: String, author: Author, at: String, frame: Int, position: Double, duration: Double?, text: String,
                drawing: [CommentShape], chain: [FilterLinkRequest], resolved: Bool = false, edited: String? = nil) {
        self.id = id
        self.author = author
        self.at = at
        self.edited = edited
        self.frame = frame
        self.position = position
        self.duration = duration
        self.text = text
        self.drawing = drawing
        self.chain = chain
        self.resolved = resolved
    }
}

/// A chain link encodes as `setFilter.chain` takes it: `{"name", "params", "region"}`, a choice by
/// its id, `region` left out for `all`.
extension FilterLinkRequest: Codable {
    private enum CodingKeys: String, CodingKey { case name, params, region }

    private enum Value: Codable {
        case number(Double)
        case choice(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) { self = .number(number) } else { self = .choice(try container.decode(String.self)) }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .number(let number): try container.encode(number)
            case .choice(let id): try container.encode(id)
            }
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let values = try container.decodeIfPresent([String: Value].self, forKey: .params) ?? [:]
        let region = try container.decodeIfPresent(String.self, forKey: .region) ?? FilterRegion.all.rawValue
        guard let region = FilterRegion(rawValue: region) else {
            throw DecodingError.dataCorruptedError(forKey: .region, in: container, debugDescription: "no region \(region)")
        }
        self.init(name: try container.decode(String.self, forKey: .name), params: values.mapValues { value in
            switch value {
            case .number(let number): .number(number)
            case .choice(let id): .choice(id)
            }
        }, region: region)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(params.mapValues { value -> Value in
            switch value {
            case .number(let number): .number(number.isFinite ? number : 0)
            case .choice(let id): .choice(id)
            }
        }, forKey: .params)
        if region != .all { try container.encode(region.rawValue, forKey: .region) }
    }
}

extension CommentCommand {
    /// What the command did to `comment` (the core always names it; without it, "a comment"):
    /// "commented at 0:12.4: “warmer”", "resolved the comment at 0:12.4".
    func sentence(about comment: Comment?) -> String {
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
