/// What a WebSocket client may do right now, as `hello.access` tells it (docs/PROTOCOL.md):
/// so that a page can ask for the token before the user wonders why nothing shows.
public enum ViewerAccess: String, Sendable, Encodable {
    /// Everything `control` may, and change the server's channels (the `--admin-token` given).
    case admin
    /// Watch and command (no `--token`, or the right token given).
    case control
    /// Watch only (`--token` with `--public-view`, no token given): commands need `auth`.
    case watch
    /// Nothing until `auth` (`--token` without `--public-view`, no token given).
    case none
}
