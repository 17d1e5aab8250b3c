import CastProtocol
import Foundation

/// One entry of the route table: which requests it takes (methods and path), the access they
/// need, and the handler that answers them once the router has checked that access.
///
/// The access level has no default: a route states it, and `RouteTableTests` lists every
/// route's level, so a route added without thinking about who may use it fails a test.
struct Route {
    enum Path: Equatable, CustomStringConvertible {
        /// Exactly this path.
        case exact(String)
        /// This prefix and anything after it (the rest is the handler's argument).
        case prefix(String)

        /// The part after the prefix ("" for an exact match), or nil when `path` does not match.
        func match(_ path: String) -> String? {
            switch self {
            case .exact(let exact): path == exact ? "" : nil
            case .prefix(let prefix): path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : nil
            }
        }

        var description: String {
            switch self {
            case .exact(let path): path
            case .prefix(let prefix): prefix + "*"
            }
        }
    }

    /// What a route is about: the server, or the channel its `?channel=` names (the default one
    /// without), where that channel's own token counts too.
    enum Scope: Equatable {
        case server, channel
    }

    /// GET routes take HEAD too.
    let methods: Set<HTTPRequest.Method>
    let path: Path
    let access: AccessLevel
    /// Refuse (403) a browser page of another site before anything else: a route that changes
    /// things must not be driven from a visitor's browser by a foreign page.
    let refusesForeignOrigins: Bool
    /// About the server unless stated: a channel's token then grants nothing here.
    var scope = Scope.server
    /// The request and the part of its path after a prefix route's prefix.
    let handle: (HTTPRequest, String) -> HTTPAnswer

    /// A GET (and HEAD) route.
    static func get(_ path: Path, access: AccessLevel, scope: Scope = .server,
                    _ handle: @escaping (HTTPRequest, String) -> HTTPAnswer) -> Route {
        Route(methods: [.get, .head], path: path, access: access, refusesForeignOrigins: false, scope: scope, handle: handle)
    }

    /// A PUT (and POST) route: it changes things, so foreign origins are refused.
    static func put(_ path: Path, access: AccessLevel, scope: Scope = .server,
                    _ handle: @escaping (HTTPRequest, String) -> HTTPAnswer) -> Route {
        Route(methods: [.put, .post], path: path, access: access, refusesForeignOrigins: true, scope: scope, handle: handle)
    }

    /// A DELETE route: it changes things, so foreign origins are refused.
    static func delete(_ path: Path, access: AccessLevel, scope: Scope = .server,
                    _ handle: @escaping (HTTPRequest, String) -> HTTPAnswer) -> Route {
        Route(methods: [.delete], path: path, access: access, refusesForeignOrigins: true, scope: scope, handle: handle)
    }

    /// The rest of a prefix route's path, percent-decoded ("" when it does not decode).
    static func decoded(_ rest: String) -> String { rest.removingPercentEncoding ?? "" }
}
