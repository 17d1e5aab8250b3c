import CastProtocol
import FilterKit
import Foundation
import Logging

/// One `PUT /api/luts/NAME` body, gathered in memory (it is at most ``LUTUpload/maximumBytes``).
/// Network thread only.
final class LUTUpload: GatheredBody {
    /// The largest `.cube` taken (``CubeParser/maximumBytes``).
    static let maximumBytes = CubeParser.maximumBytes
    /// Bodies gathered at once: what they may hold in memory together is bounded.
    static let concurrentLimit = 2

    let name: String
    let expected: Int
    var body: [UInt8]

    init(name: String, expected: Int) {
        self.name = name
        self.expected = expected
        body = []
        body.reserveCapacity(expected)
    }
}

/// Why a body is not taken: the status and its message.
struct BodyRefusal: Error {
    let step: ServerCore.UploadStep

    init(_ code: UInt32, _ message: String) { step = .refuse(code, message) }
}

/// A request body gathered in memory, up to the `Content-Length` it announced. Network thread only.
protocol GatheredBody: AnyObject {
    var expected: Int { get }
    var body: [UInt8] { get set }
}

/// `PUT /api/luts/NAME` (control) once the router admitted it: the `.cube` body, announced by its
/// `Content-Length` and at most 16 MB, is gathered in memory, parsed and checked on the network
/// thread (some 100 ms for the largest file in a release build), written into the `--luts` folder
/// atomically and added to the library — then every page is sent the new catalog (`catalog`), in
/// which it is a choice of `lut`. A bad file is 400 naming its line and the reason, and leaves
/// nothing behind; a name taken 409; the library full (``LUTLibrary/capacity``) 507.
extension ServerCore {
    var luts: LUTFolder? { configuration.luts }

    /// The router admitted a LUT to `name` on connection `id` (`request`: its headers).
    func lutUploadAdmitted(_ id: ConnectionID, name: String, request: HTTPRequest) -> UploadStep {
        guard let luts else { return .refuse(404, "this server has no LUT folder (--luts)") }
        guard LUTLibrary.isValidName(name) else {
            return .refuse(400, "'\(name.prefix(40))' is not a LUT name: 1 to \(LUTLibrary.maximumNameLength) of a-z 0-9 _ -")
        }
        if let refusal = refusalToAdd(name, to: luts.library) { return refusal }
        let size: Int
        switch Self.announcedSize(request, atMost: LUTUpload.maximumBytes, of: "the LUT", expecting: "a .cube file") {
        case .success(let announced): size = announced
        case .failure(let refusal): return refusal.step
        }
        guard lutUploads.count < LUTUpload.concurrentLimit else {
            return .refuse(503, "\(LUTUpload.concurrentLimit) LUT uploads are under way; try again when one ends")
        }
        lutUploads[id] = LUTUpload(name: name, expected: size)
        return .takeBody(sendContinue: request.header(.expect).lowercased() == "100-continue")
    }

    /// A piece of an admitted LUT's body (nil: this connection carries no LUT).
    func lutBody(_ id: ConnectionID, _ bytes: UnsafeRawBufferPointer) -> UploadStep? {
        Self.gather(bytes, into: &lutUploads, id)
    }

    /// The whole body came: parsed, checked, stored and offered, or refused (nil: no LUT here).
    func lutBodyComplete(_ id: ConnectionID) -> UploadStep? {
        guard let upload = lutUploads.removeValue(forKey: id) else { return nil }
        guard let luts else { return .refuse(404, "this server has no LUT folder (--luts)") }
        let lut: CubeLUT
        do {
            lut = try CubeParser.parse(upload.body)
        } catch {
            Log.info("LUT refused", ["name": .string(upload.name), "reason": .string(error.description)])
            return .refuse(400, "\(upload.name).cube: \(error)")
        }
        if let refusal = refusalToAdd(upload.name, to: luts.library) { return refusal }
        do {
            try luts.store(upload.body, named: upload.name)
            try luts.library.add(lut, as: upload.name)
        } catch {
            return .refuse(500, "\(error)")
        }
        Log.info("LUT stored", ["name": .string(upload.name), "size": .int(lut.size), "bytes": .int(upload.body.count)])
        catalogChanged()
        struct Stored: Encodable { let name: String, size: Int, title: String }
        return .answer(201, JSONBody.encoded(Stored(name: upload.name, size: lut.size, title: lut.title)))
    }

    /// A LUT upload's client left before its body was whole.
    func lutUploadClosed(_ id: ConnectionID) {
        lutUploads[id] = nil
    }

    /// Every viewer, of every channel, is sent the catalog as it is now.
    func catalogChanged() {
        let filters = channels.defaultChannel.session.catalog.descriptors
        for (id, viewer) in viewers {
            viewer.session.catalogChanged(filters)
            requestWrite(id)
        }
    }

    /// The size of a body to gather in memory, as `request`'s `Content-Length` announces it: 1 to
    /// `maximum` bytes of `what` (a LUT, …), which should be `expected`; else the refusal (411
    /// without it, 400 for no number or an empty body, 413 over `maximum`).
    static func announcedSize(_ request: HTTPRequest, atMost maximum: Int, of what: String,
                              expecting expected: String) -> Result<Int, BodyRefusal> {
        let length = request.header(.contentLength)
        guard !length.isEmpty else { return .failure(BodyRefusal(411, "Content-Length is required (the size is checked before the body)")) }
        guard let size = Int(length), size >= 0 else { return .failure(BodyRefusal(400, "Content-Length '\(length.prefix(40))' is not a number")) }
        guard size > 0 else { return .failure(BodyRefusal(400, "the body is empty: \(expected) is expected")) }
        guard size <= maximum else { return .failure(BodyRefusal(413, "\(what) is too big: \(size) bytes, at most \(maximum)")) }
        return .success(size)
    }

    /// A piece of a body gathered in memory (a LUT's, a channel's) by `id`'s entry of `pending`
    /// (nil: `id` has none); a body longer than announced is refused and its entry dropped.
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

    private func refusalToAdd(_ name: String, to library: LUTLibrary) -> UploadStep? {
        if library.contains(name) { return .refuse(409, "a LUT named '\(name)' exists already") }
        if library.count >= LUTLibrary.capacity { return .refuse(507, "the server holds \(library.count) LUTs, the most it takes") }
        return nil
    }
}
