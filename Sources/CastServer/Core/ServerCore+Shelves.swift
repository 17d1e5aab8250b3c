import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization

/// One `PUT` body for an ``UploadShelf``, gathered in memory (it is at most the shelf's
/// ``UploadShelf/maximumBytes``), then checked on a thread of its own, which posts into
/// ``checked`` how to keep the item (run on the network thread) or why it is refused.
/// Network thread, but for its check.
final class ShelfUpload: PendingBody {
    typealias Keeper = @Sendable () -> Result<[UInt8], ShelfRefusal>
    /// Bodies gathered or checked at once, over every shelf: what they hold in memory together is bounded.
    static let concurrentLimit = 2

    let name: String
    let noun: String
    private var gathered: GatheredBytes
    /// The check's result, posted by its thread.
    let checked = CheckResult<Result<Keeper, ShelfRefusal>>()
    private let checkThreadName: String
    private let check: @Sendable ([UInt8]) -> Result<Keeper, ShelfRefusal>

    init<Shelf: UploadShelf>(_ shelf: Shelf, name: String, expected: Int) {
        self.name = name
        noun = shelf.noun
        checkThreadName = shelf.checkThreadName
        check = { body in
            shelf.check(body, name: name).map { item in
                { shelf.refusalToAdd(name).map { .failure($0) } ?? shelf.keep(item, body: body, name: name) }
            }
        }
        gathered = GatheredBytes(expected: expected)
    }

    func append(_ bytes: UnsafeRawBufferPointer, in core: ServerCore) -> BodyRefusal? { gathered.append(bytes) }

    func complete(in core: ServerCore, on id: ConnectionID) -> BodyCompletion {
        if let shortfall = gathered.shortfall { return .step(shortfall.step) }
        let (body, check, checked) = (gathered.bytes, check, checked)
        return .check(thread: checkThreadName, work: {
            checked.post(check(body))
        }, answer: { core in
            core.keep(self, checked.posted ?? .failure(ShelfRefusal(500, "the \(self.noun) was not checked")))
        })
    }

    /// Nothing but memory is held: dropped with it (a check that ran kept nothing: its keeper is not run).
    func abandon(in core: ServerCore) {}

    var size: Int { gathered.expected }
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
    func shelfUploadAdmitted(_ id: ConnectionID, into shelf: some UploadShelf, name: String, request: HTTPRequest) -> BodyStep {
        if let refusal = shelf.refusalToAdd(name) { return .refuse(refusal.status, refusal.description) }
        switch GatheredBytes.announcedSize(request, atMost: shelf.maximumBytes, of: "the \(shelf.noun)", expecting: shelf.expected) {
        case .failure(let refusal): return refusal.step
        case .success(let size):
            guard bodies.all(ShelfUpload.self).count < ShelfUpload.concurrentLimit else {
                return .refuse(503, "\(ShelfUpload.concurrentLimit) uploads of LUTs, styles or backgrounds are under way; try again when one ends")
            }
            return takeBody(ShelfUpload(shelf, name: name, expected: size), on: id, request: request)
        }
    }

    /// A checked item kept and every viewer told (201); or why not.
    func keep(_ upload: ShelfUpload, _ checked: Result<ShelfUpload.Keeper, ShelfRefusal>) -> BodyStep {
        switch checked.flatMap({ $0() }) {
        case .failure(let refusal):
            Log.info("\(upload.noun) refused", ["name": .string(upload.name), "reason": .string(refusal.description)])
            return .refuse(refusal.status, refusal.description)
        case .success(let answer):
            Log.info("\(upload.noun) stored", ["name": .string(upload.name), "bytes": .int(upload.size)])
            catalogChanged()
            return .answer(201, answer)
        }
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
