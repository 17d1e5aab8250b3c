/// The security headers every HTTP answer carries (what lws' "security best practices" option
/// sends, written here because that option sends them to every answer alike): the page's scripts,
/// styles and sockets come from this server alone, and no other site may put it in a frame —
/// except the pages made to be framed (``StaticFiles/framable(_:)``: `/embed`, for `<iframe>`s
/// and OBS), which any site may.
enum SecurityHeaders {
    static func headers(framable: Bool) -> [(String, String)] {
        let ancestors = framable ? "*" : "'none'"
        let policy = "default-src 'none'; img-src 'self' data: ; script-src 'self'; font-src 'self'; style-src 'self'; "
            + "connect-src 'self' ws: wss:; frame-ancestors \(ancestors); base-uri 'none';form-action 'self';"
        return [("content-security-policy:", policy), ("x-content-type-options:", "nosniff"),
                ("x-xss-protection:", "1; mode=block"), ("referrer-policy:", "no-referrer")]
            + (framable ? [] : [("x-frame-options:", "deny")])
    }
}
