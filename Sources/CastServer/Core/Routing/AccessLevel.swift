import CastProtocol

/// What a request or a connection may do, weakest first; each level may do everything the
/// ones below it may. Every route declares the level it needs; the router compares it with the
/// level the request's credentials grant.
enum AccessLevel: Int, Comparable, Sendable, CaseIterable {
    /// Anybody: health, the page's files, the filter catalog.
    case anyone
    /// See the session: frames, state, recordings, metrics (`--public-view`, or the token).
    case watch
    /// Change the session: commands, uploads (the token, or no `--token` at all).
    case control
    /// Change the server: add and remove channels (`--admin-token` only).
    case admin

    static func < (lhs: AccessLevel, rhs: AccessLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Who may do what: `--admin-token`, `--token` (both checked in constant time) and `--public-view`.
struct AccessPolicy: Sendable {
    /// `--token`; nil when anybody may control.
    let token: AccessToken?
    /// `--admin-token`; nil when nobody is admin (then no route that needs admin is ever open:
    /// adding an input is more than controlling one, so an open server does not grant it).
    let adminToken: AccessToken?
    /// `--public-view`: anybody may watch.
    let publicView: Bool

    init(token: AccessToken?, adminToken: AccessToken? = nil, publicView: Bool) {
        self.token = token
        self.adminToken = adminToken
        self.publicView = publicView
    }

    /// The level granted to credentials `presented` (the `?token=` and the bearer token of a
    /// request, either may be nil): admin with the admin token; control with the token or
    /// without `--token`; watch with `--public-view`; else nothing beyond what anybody may do.
    func level(presenting presented: [String?]) -> AccessLevel {
        if let adminToken, presented.contains(where: { adminToken.accepts($0) }) { return .admin }
        guard let token else { return .control }
        if presented.contains(where: { token.accepts($0) }) { return .control }
        return publicView ? .watch : .anyone
    }

    /// Whether one of `presented` is a token of this server (the admin token or `--token`):
    /// what tells a request with insufficient credentials (403) from one without any (401).
    func recognizes(_ presented: [String?]) -> Bool {
        presented.contains { guess in adminToken?.accepts(guess) == true || token?.accepts(guess) == true }
    }

    /// The answer to a request whose credentials `presented` grant less than `needed`: 401 (with
    /// its challenge) when they are no token of this server's, 403 naming what is needed when
    /// they are (a controller asking for an admin route), or when nobody may have `needed`.
    func refusal(needing needed: AccessLevel, presenting presented: [String?]) -> HTTPAnswer {
        if needed == .admin && adminToken == nil {
            return .status(403, "this server has no --admin-token: nobody may change its channels")
        }
        guard recognizes(presented) else { return .tokenRequired }
        return .status(403, "this needs the \(needed == .admin ? "admin token (--admin-token)" : "token (--token)")")
    }

    /// What `hello.access` calls `level`.
    static func viewerAccess(_ level: AccessLevel) -> ViewerAccess {
        switch level {
        case .admin: .admin
        case .control: .control
        case .watch: .watch
        case .anyone: .none
        }
    }
}
