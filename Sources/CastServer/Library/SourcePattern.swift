/// One `--allow-source` pattern: the URLs a controlling client may `open` (the server must not
/// fetch whatever URL anybody who reaches the page names). `*` stands for any run of characters
/// (none included), everything else for itself; the whole URL must match.
public struct SourcePattern: Sendable, Equatable, CustomStringConvertible {
    public let description: String

    /// A pattern must name a scheme (`rtsp://cams.local/*`); nil otherwise.
    public init?(_ text: String) {
        guard let scheme = text.range(of: "://"), scheme.lowerBound > text.startIndex, !text.hasPrefix("*") else { return nil }
        description = text
    }

    public func matches(_ url: String) -> Bool {
        Self.match(Array(description.utf8)[...], Array(url.utf8)[...])
    }

    /// Glob matching with `*`, by the classic two-pointer walk with one backtrack point: linear
    /// in practice, at worst pattern × text (both short: a URL within a message's 64 KiB).
    private static func match(_ pattern: ArraySlice<UInt8>, _ text: ArraySlice<UInt8>) -> Bool {
        let star = UInt8(ascii: "*")
        var (p, t) = (pattern.startIndex, text.startIndex)
        var backtrack: (p: Int, t: Int)?
        while t < text.endIndex {
            if p < pattern.endIndex, pattern[p] == star {
                backtrack = (p, t)
                p += 1
            } else if p < pattern.endIndex, pattern[p] == text[t] {
                p += 1
                t += 1
            } else if let mark = backtrack {
                p = mark.p + 1
                t = mark.t + 1
                backtrack = (mark.p, mark.t + 1)
            } else {
                return false
            }
        }
        while p < pattern.endIndex, pattern[p] == star { p += 1 }
        return p == pattern.endIndex
    }
}
