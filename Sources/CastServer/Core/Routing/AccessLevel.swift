import CastProtocol

/// What a request or a connection may do, weakest first. Every route declares the level it
/// needs; the router compares it with the level the request's credentials grant.
enum AccessLevel: Int, Comparable, Sendable, CaseIterable {
    /// Anybody: health, the page's files, the filter catalog.
    case anyone
    /// See the session: frames, state, recordings, metrics (`--public-view`, or the token).
    case watch
    /// Change the session: commands, uploads (the token, or no `--token` at all).
    case control

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Who may do what: `--token` (checked in constant time) and `--public-view`.
struct AccessPolicy: Sendable {
    /// `--token`; nil when anybody may control.
    let token: AccessToken?
    /// `--public-view`: anybody may watch.
    let publicView: Bool

    /// The level granted to credentials `presented` (the `?token=` and the bearer token of a
    /// request, either may be nil): control with the right token or without `--token`, watch
    /// with `--public-view`, else nothing beyond what anybody may do.
    func level(presenting presented: String?...) -> AccessLevel {
        guard let token else { return .control }
        if presented.contains(where: { token.accepts($0) }) { return .control }
        return publicView ? .watch : .anyone
    }

    /// What `hello.access` calls `level`.
    static func viewerAccess(_ level: AccessLevel) -> ViewerAccess {
        switch level {
        case .control: .control
        case .watch: .watch
        case .anyone: .none
        }
    }
}
