import Synchronization

/// A request body the core takes — an upload, a shelf's item (a LUT, a style picture, a
/// background), a channel's JSON — whatever it is for: admitted by its route
/// (``ServerCore/takeBody(_:on:request:)``), gathered piece by piece, finished (checked on a thread of
/// its own when that costs), answered; or let go when its client leaves. The core keeps one table
/// of them (``PendingBodies``); the adapter feeds it through `ServerCore+HTTP`. Network thread only.
protocol PendingBody: AnyObject {
    /// One more piece of the body; a refusal ends the request (the body lets go of what it took).
    func append(_ bytes: UnsafeRawBufferPointer, in core: ServerCore) -> BodyRefusal?
    /// The whole body came (connection `id`): how it is finished.
    func complete(in core: ServerCore, on id: ConnectionID) -> BodyCompletion
    /// Its client left before the answer (after its check, when one ran): what it holds is let go.
    func abandon(in core: ServerCore)
}

/// How a whole body is finished.
enum BodyCompletion {
    /// Checked on a thread called `thread`: `work` runs there and keeps its result in the body;
    /// then the network thread is woken and `answer` (run there) is the request's answer.
    case check(thread: String, work: @Sendable () -> Void, answer: (ServerCore) -> BodyStep)
    /// This step now: a refusal, or `.waiting` for an answer that comes another way (a channel opened).
    case step(BodyStep)
}

/// What the adapter does next with a connection whose request is pending.
package enum BodyStep: Equatable {
    /// Take the body (after `100 Continue` when the client waits for it).
    case takeBody(sendContinue: Bool)
    /// Go on taking it.
    case receiving
    /// The body is whole and being checked: the answer comes at a later wake-up (``ServerCore/takeBodyAnswers()``).
    case probing
    /// The answer comes at a later wake-up, within this many seconds (a channel opened or stopped).
    case waiting(seconds: Int32)
    /// Answer this error; a body still arriving is drained a moment, not taken.
    case refuse(UInt32, String)
    /// Answer this status with this JSON body.
    case answer(UInt32, [UInt8])
}

/// Why a body is not taken: the refusal to answer.
struct BodyRefusal: Error, Equatable {
    let code: UInt32
    let message: String

    init(_ code: UInt32, _ message: String) {
        self.code = code
        self.message = message
    }

    var step: BodyStep { .refuse(code, message) }
}

/// A body gathered in memory, up to the `Content-Length` it announced (a LUT, a channel's JSON).
struct GatheredBytes {
    let expected: Int
    private(set) var bytes: [UInt8] = []

    init(expected: Int) {
        self.expected = expected
        bytes.reserveCapacity(expected)
    }

    /// Adds a piece; a body longer than announced is refused.
    mutating func append(_ piece: UnsafeRawBufferPointer) -> BodyRefusal? {
        guard bytes.count + piece.count <= expected else { return BodyRefusal(400, "the body is longer than its Content-Length") }
        bytes.append(contentsOf: piece)
        return nil
    }

    /// Why the body cannot be taken as it is: fewer bytes came than announced (nil: all came).
    var shortfall: BodyRefusal? {
        bytes.count == expected ? nil : BodyRefusal(400, "the body is shorter than its Content-Length")
    }

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
}

/// What a body's check found, posted by its thread for the network thread.
final class CheckResult<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)

    func post(_ result: Value) { value.withLock { $0 = result } }

    /// The result posted (nil: none yet).
    var posted: Value? { value.withLock { $0 } }
}
