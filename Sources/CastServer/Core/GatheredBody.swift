/// A request body gathered in memory, up to the `Content-Length` it announced (a LUT, a channel's JSON).
/// Network thread only.
protocol GatheredBody: AnyObject {
    var expected: Int { get }
    var body: [UInt8] { get set }
}

/// Why a body is not taken: the refusal to answer.
struct BodyRefusal: Error {
    let step: ServerCore.UploadStep

    init(_ code: UInt32, _ message: String) { step = .refuse(code, message) }
}

extension ServerCore {
    /// The size of a body to gather in memory, as `request`'s `Content-Length` announces it: 1 to
    /// `maximum` bytes of `what`, which should be `expected`; else the refusal (411 without it,
    /// 400 for no number or an empty body, 413 over `maximum`).
    static func announcedSize(_ request: HTTPRequest, atMost maximum: Int, of what: String,
                              expecting expected: String) -> Result<Int, BodyRefusal> {
        let length = request.header(.contentLength)
        guard !length.isEmpty else { return .failure(BodyRefusal(411, "Content-Length is required (the size is checked before the body)")) }
        guard let size = Int(length), size >= 0 else { return .failure(BodyRefusal(400, "Content-Length '\(length.prefix(40))' is not a number")) }
        guard size > 0 else { return .failure(BodyRefusal(400, "the body is empty: \(expected) is expected")) }
        guard size <= maximum else { return .failure(BodyRefusal(413, "\(what) is too big: \(size) bytes, at most \(maximum)")) }
        return .success(size)
    }

    /// A piece of a body gathered in memory by `id`'s entry of `pending` (nil: `id` has none); a
    /// body longer than announced is refused and its entry dropped.
    static func gather<Body: GatheredBody>(_ bytes: UnsafeRawBufferPointer, into pending: inout [ConnectionID: Body],
                                           _ id: ConnectionID) -> UploadStep? {
        guard let gathered = pending[id] else { return nil }
        guard gathered.body.count + bytes.count <= gathered.expected else {
            pending[id] = nil
            return .refuse(400, "the body is longer than its Content-Length")
        }
        gathered.body.append(contentsOf: bytes)
        return .receiving
    }
}
