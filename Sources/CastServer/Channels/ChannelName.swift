/// A channel's name, as `--channel NAME=INPUT`, `?channel=NAME` and `hello.channel` spell it:
/// 1 to 32 characters of `a-z`, `0-9`, `_` and `-`, starting with a letter or a digit — safe
/// as a URL's query value and as a folder name (`RECORDINGS/NAME/`) as it is.
public struct ChannelName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The most characters a name has.
    public static let maximumLength = 32
    /// The channel `--input` plays.
    public static let main = ChannelName(checked: "main")

    public let description: String

    /// `text` as a channel name; the error says what is wrong with it.
    public init(_ text: String) throws(ChannelNameError) {
        guard !text.isEmpty else { throw ChannelNameError(name: text, problem: "is empty") }
        guard text.count <= Self.maximumLength else {
            throw ChannelNameError(name: text, problem: "is longer than \(Self.maximumLength) characters")
        }
        if let bad = text.unicodeScalars.first(where: { !Self.allowed($0) }) {
            throw ChannelNameError(name: text, problem: "has '\(bad)': only a-z, 0-9, _ and - may be used")
        }
        guard let first = text.unicodeScalars.first, first != "_", first != "-" else {
            throw ChannelNameError(name: text, problem: "must start with a letter or a digit")
        }
        description = text
    }

    private init(checked: String) { description = checked }

    private static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-"
    }

    public static func < (lhs: ChannelName, rhs: ChannelName) -> Bool { lhs.description < rhs.description }
}

/// A text that is not a channel name, and why.
public struct ChannelNameError: Error, Equatable, CustomStringConvertible {
    public let name: String
    public let problem: String

    public var description: String {
        "'\(name)' is not a channel name: it \(problem) (1 to \(ChannelName.maximumLength) characters of a-z, 0-9, _ and -, "
            + "starting with a letter or a digit)"
    }
}
