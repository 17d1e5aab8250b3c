import Foundation

/// Who did something on a channel, as messages name them (`changedBy`, `activity.by`,
/// `pointer.by`, `state.presenter`): the person's id on the channel (`"p3"`, the same for every
/// connection of one page) and their display name (`"Guest 3"` until they give one). Comments
/// name their author the same way.
public struct Author: Sendable, Equatable, Codable {
    public var id: String
    public var name: String

    public init(id: String, name: String) { (self.id, self.name) = (id, name) }
}

/// One entry of `state.people`: a person on the channel (one per person, however many
/// connections their page opened), what they may do (their best connection's access) and whether
/// they present.
public struct PersonEntry: Sendable, Equatable, Encodable {
    public var id: String
    public var name: String
    public var access: ViewerAccess
    public var presenter: Bool

    public init(id: String, name: String, access: ViewerAccess, presenter: Bool) {
        (self.id, self.name, self.access, self.presenter) = (id, name, access, presenter)
    }
}

/// One change to a channel's shared state and who made it: the `activity` message, an entry of
/// `GET /api/activity` and of a recording's sidecar. `id` numbers the entries of a channel: a
/// burst of slider moves is one entry, sent again (same id) with the burst's latest value.
public struct ActivityEntry: Sendable, Equatable, Codable {
    public var id: Int
    /// When, as ISO-8601 UTC with milliseconds.
    public var at: String
    /// The playhead then: seconds, and the frame's number.
    public var position: Double
    public var frame: Int
    public var by: Author
    /// The command's type (`setParams`, `seek`, `present`, …).
    public var what: String
    /// For people: "Ana switched the look to sepia".
    public var summary: String

    public init(id: Int, at: String, position: Double, frame: Int, by: Author, what: String, summary: String) {
        (self.id, self.at, self.frame, self.by, self.what, self.summary) = (id, at, frame, by, what, summary)
        self.position = position.isFinite ? position : 0
    }

    /// `date` as `at` gives it.
    public static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// A display name (`name` command, `?name=` on `/ws`): 1…``maximumLength`` characters once
/// trimmed of white space, none of them a control character.
public enum PersonName {
    public static let maximumLength = 40

    /// `raw` trimmed, or `invalid_argument` saying what is wrong (`field` names it).
    public static func validated(_ raw: String, field: String = "name.name") throws(ProtocolError) -> String {
        let name = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty, name.count <= maximumLength else {
            throw ProtocolError(code: .invalidArgument,
                                message: "\(field) must be 1…\(maximumLength) characters once trimmed, got \(name.count)")
        }
        let forbidden: Set<Unicode.GeneralCategory> = [.control, .lineSeparator, .paragraphSeparator]
        guard !name.unicodeScalars.contains(where: { forbidden.contains($0.properties.generalCategory) }) else {
            throw ProtocolError(code: .invalidArgument, message: "\(field) must not contain control characters")
        }
        return name
    }
}

/// Where a controller's laser pointer is, on the picture's 0…1 plane (x from the left, y from the
/// top): `point`'s fields, relayed as `pointer`.
public struct PointerPosition: Sendable, Equatable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) { (self.x, self.y) = (x, y) }
}
