import CastProtocol

/// Who may do what: `--admin-token`, `--token` (both checked in constant time) and `--public-view`
/// — and, on one channel (``on(_:)``), that channel's own token (`"token"` in the channels file),
/// which controls that channel only.
struct AccessPolicy: Sendable {
    /// `--token`; nil when anybody may control.
    let token: AccessToken?
    /// `--admin-token`; nil when nobody is admin (then no route that needs admin is ever open:
    /// adding an input is more than controlling one, so an open server does not grant it).
    let adminToken: AccessToken?
    /// `--public-view`: anybody may watch.
    let publicView: Bool
    /// The channel's own token, for a request or connection about that channel (nil: the
    /// server's rules alone).
    private(set) var channelToken: AccessToken?

    init(token: AccessToken?, adminToken: AccessToken? = nil, publicView: Bool) {
        self.token = token
        self.adminToken = adminToken
        self.publicView = publicView
    }

    /// This policy for a request or connection about `channel`: its own token controls it.
    func on(_ channel: Channel) -> AccessPolicy { on(channelToken: channel.token) }

    /// This policy where `channelToken` is the channel's own token.
    func on(channelToken: AccessToken?) -> AccessPolicy {
        var policy = self
        policy.channelToken = channelToken
        return policy
    }

    /// The level granted to credentials `presented` (the `?token=` and the bearer token of a
    /// request, either may be nil): admin with the admin token; control with the token or the
    /// channel's own, or without `--token` on a channel without a token of its own; watch with
    /// `--public-view`, or without `--token` (a channel's own token guards its control only);
    /// else nothing beyond what anybody may do.
    func level(presenting presented: [String?]) -> AccessLevel {
        if let adminToken, presented.contains(where: { adminToken.accepts($0) }) { return .admin }
        if let channelToken, presented.contains(where: { channelToken.accepts($0) }) { return .control }
        guard let token else { return channelToken == nil ? .control : .watch }
        if presented.contains(where: { token.accepts($0) }) { return .control }
        return publicView ? .watch : .anyone
    }

    /// Whether one of `presented` is a token of this server here (the admin token, `--token`,
    /// the channel's own): what tells a request with insufficient credentials (403) from one
    /// without any (401). Another channel's token is none here.
    func recognizes(_ presented: [String?]) -> Bool {
        presented.contains { guess in
            adminToken?.accepts(guess) == true || token?.accepts(guess) == true || channelToken?.accepts(guess) == true
        }
    }

    /// The answer to a request whose credentials `presented` grant less than `needed`: 401 (with
    /// its challenge) when they are no token of this server's, 403 naming what is needed when
    /// they are (a controller asking for an admin route), or when nobody may have `needed`.
    func refusal(needing needed: AccessLevel, presenting presented: [String?]) -> HTTPAnswer {
        if needed == .admin && adminToken == nil {
            return .status(403, "this server has no --admin-token: nobody may change its channels")
        }
        guard recognizes(presented) else { return .tokenRequired }
        let control = channelToken == nil ? "token (--token)" : "token (--token, or the channel's own)"
        return .status(403, "this needs the \(needed == .admin ? "admin token (--admin-token)" : control)")
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
