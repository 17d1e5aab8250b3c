import CastProtocol
import Logging

/// Answers HTTP requests from one route table, in a stated order of checks: the method, the
/// route, a foreign origin (for routes that change things), the access the route declares (401
/// without a token of this server's, 403 with one that grants too little; on a route about a
/// channel, that channel's own token counts) — and only then the route's handler, which never
/// checks access itself.
///
/// Service thread only (the handlers read the session's state).
struct Router {
    let routes: [Route]
    let access: AccessPolicy
    /// `--allow-origin`: origins besides the server's own.
    let allowedOrigins: [String]
    /// The own token of the channel a `?channel=` value names (nil: the default channel's), nil
    /// for a channel without one or a name that is no channel's.
    var channelToken: (String?) -> AccessToken? = { _ in nil }

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        guard request.method != .other else { return .status(405, "only GET and HEAD are served") }
        guard let (route, rest) = match(request) else {
            return request.method == .get || request.method == .head
                ? .status(404, "not found")
                : .status(405, "only GET and HEAD are served here; uploads go to PUT /api/uploads/NAME, channels to PUT and DELETE /api/channels/NAME")
        }
        if route.refusesForeignOrigins, let origin = foreignOrigin(request) {
            Log.warning("request refused: origin not allowed", ["address": .string(request.address), "origin": .string(origin),
                                                                "path": .string(request.path)])
            return .status(403, "origin not allowed")
        }
        let presented = request.presented
        let access = route.scope == .channel ? access.on(channelToken: channelToken(request.argument("channel"))) : access
        guard access.level(presenting: presented) >= route.access else {
            return access.refusal(needing: route.access, presenting: presented)
        }
        return route.handle(request, rest)
    }

    /// The first route whose methods and path take the request, and the rest of its path.
    func match(_ request: HTTPRequest) -> (Route, String)? {
        for route in routes where route.methods.contains(request.method) {
            if let rest = route.path.match(request.path) { return (route, rest) }
        }
        return nil
    }

    /// The access `request`'s credentials grant.
    func granted(_ request: HTTPRequest) -> AccessLevel {
        access.level(presenting: request.presented)
    }

    /// The request's `Origin` when it is another site's (not the server's own, not allowed by
    /// `--allow-origin`); nil for allowed origins and for clients that send none (tools).
    func foreignOrigin(_ request: HTTPRequest) -> String? {
        let origin = request.header(.origin)
        let allowed = origin.isEmpty || OriginPolicy.allows(origin: origin, host: request.header(.host), allowed: allowedOrigins)
        return allowed ? nil : origin
    }
}
