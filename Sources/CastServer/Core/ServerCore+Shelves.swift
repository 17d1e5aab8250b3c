import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization

/// One `PUT` body for an ``UploadShelf``, gathered in memory (it is at most the shelf's
/// ``UploadShelf/maximumBytes``), then checked on a thread of its own. Its fields belong to the
/// network thread; the checking thread reads only the body handed to it and posts into ``checked``
/// how to keep the item (run on the network thread) or why it is refused.
final class ShelfUpload: Sendable, GatheredBody {
    typealias Keeper = @Sendable () -> Result<[UInt8], ShelfRefusal>
    /// Bodies gathered or checked at once, over every shelf: what they hold in memory together is bounded.
    static let concurrentLimit = 2

    let name: String
    let expected: Int
    let noun: String
    nonisolated(unsafe) var body: [UInt8]
    /// The thread checking the whole body (joined when its result is taken).
    nonisolated(unsafe) var checker: WorkerThread?
    /// The check's result, posted by its thread.
    let checked = Mutex<Result<Keeper, ShelfRefusal>?>(nil)
    private let checkThreadName: String
    private let check: @Sendable ([UInt8]) -> Result<Keeper, ShelfRefusal>

    init<Shelf: UploadShelf>(_ shelf: Shelf, name: String, expected: Int) {
        self.name = name
        self.expected = expected
        noun = shelf.noun
        checkThreadName = shelf.checkThreadName
        check = { body in
            shelf.check(body, name: name).map { item in
                { shelf.refusalToAdd(name).map { .failure($0) } ?? shelf.keep(item, body: body, name: name) }
            }
        }
        body = []
        body.reserveCapacity(expected)
    }

    /// Starts checking the body on a thread of its own, which rings `wake` when done.
    func startCheck(wake: NetworkWake) {
        let body = body
        checker = WorkerThread(name: checkThreadName) { [self] in
            let result = check(body)
            checked.withLock { $0 = result }
            wake.ring()
        }
    }
}

/// `PUT /api/luts/NAME`, `PUT /api/styles/NAME` (control) once the router admitted it: the body,
/// announced by its `Content-Length` and at most the shelf's maximum, is gathered in memory,
/// checked on a thread of its own (a 65³ `.cube` takes some 0.2 s of CPU, a picture's style code
/// a network run: never on the network thread), whose result wakes the network thread; there it
/// is written into the shelf's folder atomically and offered — then every page is sent the new
/// catalog (`catalog`), in which it is a choice. A bad body is 400 (415 for a picture that is
/// none) naming the reason, and leaves nothing behind; a name taken 409; the shelf full 507.
extension ServerCore {
    /// The router admitted an item `name` for `shelf` on connection `id` (`request`: its headers).
    func shelfUploadAdmitted(_ id: ConnectionID, into shelf: some UploadShelf, name: String, request: HTTPRequest) -> UploadStep {
        if let refusal = shelf.refusalToAdd(name) { return .refuse(refusal.status, refusal.description) }
        switch Self.announcedSize(request, atMost: shelf.maximumBytes, of: "the \(shelf.noun)", expecting: shelf.expected) {
        case .failure(let refusal): return refusal.step
        case .success(let size):
            guard shelfUploads.count < ShelfUpload.concurrentLimit else {
                return .refuse(503, "\(ShelfUpload.concurrentLimit) uploads of LUTs, styles or backgrounds are under way; try again when one ends")
            }
            shelfUploads[id] = ShelfUpload(shelf, name: name, expected: size)
            return .takeBody(sendContinue: request.header(.expect).lowercased() == "100-continue")
        }
    }

    /// A piece of an admitted item's body (nil: this connection carries none).
    func shelfBody(_ id: ConnectionID, _ bytes: UnsafeRawBufferPointer) -> UploadStep? {
        Self.gather(bytes, into: &shelfUploads, id)
    }

    /// The whole body came: its check starts on a thread of its own, whose result wakes the
    /// network thread (``takeShelfAnswers()``) (nil: no item here).
    func shelfBodyComplete(_ id: ConnectionID) -> UploadStep? {
        guard let upload = shelfUploads[id] else { return nil }
        guard upload.checker == nil else { return .probing }
        guard upload.body.count == upload.expected else {
            shelfUploads[id] = nil
            return .refuse(400, "the body is shorter than its Content-Length")
        }
        upload.startCheck(wake: wake)
        return .probing
    }

    /// The answers of the items whose check finished (at a wake-up), by connection: kept and
    /// offered (201), or refused. Those whose client left were dropped already.
    func takeShelfAnswers() -> [(ConnectionID, UploadAnswer)] {
        let done = shelfUploads.filter { $0.value.checked.withLock { $0 != nil } }
        return done.map { id, upload in
            shelfUploads[id] = nil
            upload.checker?.join()
            return (id, keep(upload, upload.checked.withLock { $0! }))
        }
    }

    /// A checked item kept and every viewer told; or why not.
    private func keep(_ upload: ShelfUpload, _ checked: Result<ShelfUpload.Keeper, ShelfRefusal>) -> UploadAnswer {
        switch checked.flatMap({ $0() }) {
        case .failure(let refusal):
            Log.info("\(upload.noun) refused", ["name": .string(upload.name), "reason": .string(refusal.description)])
            return .refused(refusal.status, refusal.description)
        case .success(let answer):
            Log.info("\(upload.noun) stored", ["name": .string(upload.name), "bytes": .int(upload.body.count)])
            catalogChanged()
            return .stored(answer)
        }
    }

    /// An item's client left: its body is dropped (a check under way finishes unheeded; its
    /// thread is joined here).
    func shelfUploadClosed(_ id: ConnectionID) {
        shelfUploads.removeValue(forKey: id)?.checker?.join()
    }

    /// Every viewer, of every channel, is sent the catalog as it is now.
    func catalogChanged() {
        let filters = channels.defaultChannel.session.catalog.descriptors
        for (id, viewer) in viewers {
            viewer.session.catalogChanged(filters)
            requestWrite(id)
        }
    }
}
