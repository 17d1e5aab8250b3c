/// What a request or a connection may do, weakest first; each level may do everything the
/// ones below it may. Every HTTP route and every WebSocket command (``CommandTable``) declares
/// the level it needs; the server compares it with the level the credentials grant.
public enum AccessLevel: Int, Comparable, Sendable, CaseIterable {
    /// Anybody: health, the page's files, the filter catalog, a connection's own business.
    case anyone
    /// See the session: frames, state, recordings, metrics (`--public-view`, or the token).
    case watch
    /// Change the session: commands, uploads (the token, or no `--token` at all).
    case control
    /// Change the server: add and remove channels (`--admin-token` only).
    case admin

    public static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}
