/// What a route answers; the lws adapter writes it. Bodies that are not known when the request
/// is routed (a file, the next snapshot, an MJPEG stream, an upload's body) are named, and the
/// adapter serves them as their own kind of connection.
package enum HTTPAnswer: Sendable {
    /// A whole body of `type` (HEAD: its headers only).
    case body(status: UInt32, type: String, bytes: [UInt8])
    /// An error (or other plain-text status) with `message` as its body, and extra headers
    /// (name with its colon).
    case status(UInt32, String, headers: [(String, String)])
    /// The file at `path`, with byte ranges; `framable`: any site may put it in a frame.
    case file(path: String, mimeType: String, framable: Bool = false)
    /// The newest JPEG of a channel's JPEG rendition `rendition`, or the next one when none is
    /// encoded now.
    case snapshot(of: Channel, rendition: Int)
    /// `multipart/x-mixed-replace` JPEGs of a channel's JPEG rendition `rendition`, for as long as the reader stays.
    case mjpeg(of: Channel, rendition: Int)
    /// A request answered after more work (``ServerCore/start(_:on:_:)``): a body to take (an
    /// upload, a LUT, a picture, a channel's JSON), a channel to stop.
    case pending(PendingRequest)

    /// 200 with a JSON body.
    static func json(_ bytes: [UInt8]) -> HTTPAnswer { .body(status: 200, type: "application/json", bytes: bytes) }

    /// A plain-text status without extra headers.
    static func status(_ code: UInt32, _ message: String) -> HTTPAnswer { .status(code, message, headers: []) }

    /// 401, with the challenge RFC 9110 asks of it: the same on every route.
    static let tokenRequired = HTTPAnswer.status(401, "token required (?token=SECRET or Authorization: Bearer SECRET)",
                                                 headers: [("www-authenticate:", "Bearer realm=\"filtercast\"")])

    /// The status code (for tests and the log).
    var code: UInt32 {
        switch self {
        case .body(let status, _, _): status
        case .status(let code, _, _): code
        case .file, .snapshot, .mjpeg, .pending: 200
        }
    }
}

/// What a route hands the core for a request it answers after more work: `start` runs on the
/// network thread with the core, the connection and the request (its headers), and says the
/// adapter's first step — typically ``ServerCore/takeBody(_:on:request:)`` with the body that
/// will read the request's body, or a refusal. Each route reads its own body.
package struct PendingRequest: Sendable {
    let start: @Sendable (ServerCore, ConnectionID, HTTPRequest) -> BodyStep
}
