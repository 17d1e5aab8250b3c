import MediaKit

/// The URLs `open` may play (`--allow-source`), and how to open one at the session's size.
public struct URLSources: Sendable {
    public let patterns: [SourcePattern]
    /// Opens a URL (on the decode thread), its reads broken by the interruption it is given.
    let opener: @Sendable (String) -> InputOpener

    public init(patterns: [SourcePattern], opener: @escaping @Sendable (String) -> InputOpener) {
        self.patterns = patterns
        self.opener = opener
    }

    /// Whether some pattern allows `url`, its credentials left out: `http://127.0.0.1:80@evil.com/`
    /// is evil.com's, and is matched as `http://evil.com/`.
    func allow(_ url: String) -> Bool {
        let bare = Self.withoutCredentials(url)
        return patterns.contains { $0.matches(bare) }
    }

    /// `url` as viewers see it: no credentials, no query (a stream key, a token).
    static func shown(_ url: String) -> String {
        let bare = withoutCredentials(url)
        return bare.firstIndex(where: { $0 == "?" || $0 == "#" }).map { String(bare[..<$0]) } ?? bare
    }

    /// `url` without the `user:password@` of its authority.
    static func withoutCredentials(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let authorityEnd = url[scheme.upperBound...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        guard let at = url[scheme.upperBound..<authorityEnd].lastIndex(of: "@") else { return url }
        var bare = url
        bare.removeSubrange(scheme.upperBound...at)
        return bare
    }
}
