/// Which pages may open the WebSocket: the server's own (the `Origin`'s host equals the `Host`
/// the browser connected to) and the origins given with `--allow-origin`. Clients that send no
/// `Origin` (command-line tools) are not browsers and are not subject to it.
enum OriginPolicy {
    static func allows(origin: String, host: String, allowed: [String]) -> Bool {
        let origin = origin.lowercased()
        if allowed.contains(where: { $0.lowercased() == origin || $0 == "*" }) { return true }
        guard let schemeEnd = origin.range(of: "://") else { return false }
        let originHost = origin[schemeEnd.upperBound...]
        return !host.isEmpty && originHost == host.lowercased()
    }
}
