/// One HTTP request as the router sees it: method, path, query arguments and the few headers
/// any route reads. The lws adapter reads them from the connection, within the callback (service
/// thread); tests build them directly.
package struct HTTPRequest {
    package enum Method: String, Sendable {
        case get = "GET", head = "HEAD", put = "PUT", post = "POST", delete = "DELETE", other = "OTHER"
    }

    /// The headers a route may read.
    package enum Header: Sendable, CaseIterable {
        case authorization, origin, host, range, ifRange, contentLength, expect
    }

    package let method: Method
    /// The URL's path, without its query.
    let path: String
    /// `?name=` of the URL, if present (read lazily: lws copies each on demand).
    let argument: (String) -> String?
    /// A header's value, "" when absent.
    let header: (Header) -> String
    /// The query string's length in bytes (a route may refuse a long one).
    let queryLength: Int
    /// Where it came from, for the log.
    package let address: String

    package init(method: Method, path: String, queryLength: Int = 0, address: String = "",
         argument: @escaping (String) -> String? = { _ in nil },
         header: @escaping (Header) -> String = { _ in "" }) {
        self.method = method
        self.path = path
        self.queryLength = queryLength
        self.address = address
        self.argument = argument
        self.header = header
    }

    /// A request from fixed values (tests, and anything that is not lws).
    init(method: Method, path: String, arguments: [String: String], headers: [Header: String] = [:]) {
        self.init(method: method, path: path, queryLength: arguments.map { $0.key.utf8.count + $0.value.utf8.count + 2 }.reduce(0, +),
                  argument: { arguments[$0] }, header: { headers[$0] ?? "" })
    }

    /// PUT, POST or DELETE: a request that changes things (its refusals are final answers, a
    /// body still arriving is drained a moment).
    package var changes: Bool { method == .put || method == .post || method == .delete }

    /// HEAD: the answer's headers without its body.
    package var isHead: Bool { method == .head }

    /// The credentials it presents: `?token=` and `Authorization: Bearer`.
    var credentials: (query: String?, bearer: String?) {
        (argument("token"), AccessToken.bearerCredentials(in: header(.authorization)))
    }

    /// Its credentials as ``AccessPolicy`` takes them.
    var presented: [String?] {
        let credentials = credentials
        return [credentials.query, credentials.bearer]
    }
}
