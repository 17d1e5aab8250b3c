import CastProtocol
import FilterKit
import Foundation
import Logging
import MediaKit
import Synchronization

/// One `PUT /api/luts/NAME` body, gathered in memory (it is at most ``LUTUpload/maximumBytes``),
/// then parsed on a thread of its own. Its fields belong to the network thread; the parse thread
/// reads only the body handed to it and posts its result into ``parsed``.
final class LUTUpload: Sendable, GatheredBody {
    /// The largest `.cube` taken (``CubeParser/maximumBytes``).
    static let maximumBytes = CubeParser.maximumBytes
    /// Bodies gathered or parsed at once: what they may hold in memory together is bounded.
    static let concurrentLimit = 2

    let name: String
    let expected: Int
    nonisolated(unsafe) var body: [UInt8]
    /// The thread parsing the whole body (joined when its result is taken).
    nonisolated(unsafe) var parser: WorkerThread?
    /// The parse's result, posted by its thread.
    let parsed = Mutex<Result<CubeLUT, CubeError>?>(nil)

    init(name: String, expected: Int) {
        self.name = name
        self.expected = expected
        body = []
        body.reserveCapacity(expected)
    }
}

/// `PUT /api/luts/NAME` (control) once the router admitted it: the `.cube` body, announced by its
/// `Content-Length` and at most 16 MB, is gathered in memory, parsed and checked on a **lut-parse**
/// thread (a 65³ file takes some 0.2 s of CPU: never on the network thread), whose result wakes the
/// network thread; there it is written into the `--luts` folder atomically and added to the
/// library — then every page is sent the new catalog (`catalog`), in which it is a choice of `lut`. A bad file is 400 naming its line and the reason, and leaves
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
        let length = request.header(.contentLength)
        guard !length.isEmpty else { return .refuse(411, "Content-Length is required (the size is checked before the body)") }
        guard let size = Int(length), size >= 0 else { return .refuse(400, "Content-Length '\(length.prefix(40))' is not a number") }
        guard size > 0 else { return .refuse(400, "the body is empty: a .cube file is expected") }
        guard size <= LUTUpload.maximumBytes else {
            return .refuse(413, "the LUT is too big: \(size) bytes, at most \(LUTUpload.maximumBytes)")
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

    /// The whole body came: its parse starts on a thread of its own, whose result wakes the
    /// network thread (``takeLUTAnswers()``) (nil: no LUT here).
    func lutBodyComplete(_ id: ConnectionID) -> UploadStep? {
        guard let upload = lutUploads[id] else { return nil }
        guard upload.parser == nil else { return .probing }
        guard upload.body.count == upload.expected else {
            lutUploads[id] = nil
            return .refuse(400, "the body is shorter than its Content-Length")
        }
        let body = upload.body
        upload.parser = WorkerThread(name: "lut-parse") { [wake] in
            let result = Result { () throws(CubeError) in try CubeParser.parse(body) }
            upload.parsed.withLock { $0 = result }
            wake.ring()
        }
        return .probing
    }

    /// The answers of the LUTs whose parse finished (at a wake-up), by connection: stored and
    /// offered (201), or refused. Those whose client left were dropped already.
    func takeLUTAnswers() -> [(ConnectionID, UploadAnswer)] {
        let done = lutUploads.filter { $0.value.parsed.withLock { $0 != nil } }
        return done.map { id, upload in
            lutUploads[id] = nil
            upload.parser?.join()
            return (id, store(upload, upload.parsed.withLock { $0! }))
        }
    }

    /// A parsed LUT written into the folder and added to the library, every viewer told; or why not.
    private func store(_ upload: LUTUpload, _ parsed: Result<CubeLUT, CubeError>) -> UploadAnswer {
        guard let luts else { return .refused(404, "this server has no LUT folder (--luts)") }
        let lut: CubeLUT
        switch parsed {
        case .success(let value): lut = value
        case .failure(let error):
            Log.info("LUT refused", ["name": .string(upload.name), "reason": .string(error.description)])
            return .refused(400, "\(upload.name).cube: \(error)")
        }
        if case .refuse(let code, let message)? = refusalToAdd(upload.name, to: luts.library) { return .refused(code, message) }
        do {
            try luts.store(upload.body, named: upload.name)
            try luts.library.add(lut, as: upload.name)
        } catch {
            return .refused(500, "\(error)")
        }
        Log.info("LUT stored", ["name": .string(upload.name), "size": .int(lut.size), "bytes": .int(upload.body.count)])
        catalogChanged()
        struct Stored: Encodable { let name: String, size: Int, title: String }
        return .stored(JSONBody.encoded(Stored(name: upload.name, size: lut.size, title: lut.title)))
    }

    /// A LUT upload's client left: its body is dropped (a parse under way finishes unheeded; its
    /// thread is joined here).
    func lutUploadClosed(_ id: ConnectionID) {
        lutUploads.removeValue(forKey: id)?.parser?.join()
    }

    /// Every viewer, of every channel, is sent the catalog as it is now.
    func catalogChanged() {
        let filters = channels.defaultChannel.session.catalog.descriptors
        for (id, viewer) in viewers {
            viewer.session.catalogChanged(filters)
            requestWrite(id)
        }
    }

    /// `DELETE /api/luts/NAME` (control), at once: a LUT that a chain in force uses — a channel's
    /// program or preview — is 409 naming where (choose another LUT there first: a picture on
    /// air never changes by itself); else its file is removed, then its choice, every chain is
    /// validated again (the choices after it moved up one) and every viewer is sent the catalog.
    func deleteLUT(_ name: String) -> HTTPAnswer {
        guard let luts else { return .status(404, "this server has no LUT folder (--luts)") }
        guard LUTLibrary.isValidName(name) else { return .status(400, LUTLibraryError.badName(name).description) }
        let users = chains(using: name)
        guard users.isEmpty else {
            return .status(409, "the LUT '\(name)' is in use by \(users.joined(separator: ", ")): choose another LUT there first")
        }
        do throws(LUTFolderError) {
            guard try luts.remove(name) else { return .status(404, "no LUT named '\(name)'") }
        } catch {
            return .status(500, error.description)
        }
        Log.info("LUT deleted", ["name": .string(name)])
        for channel in channels.all where channel.session.catalogChoicesMoved() { broadcastState(channel) }
        catalogChanged()
        return .json(encoding: ["deleted": name])
    }

    /// Where a chain in force applies the LUT `name`: "channel NAME's program" (or preview).
    private func chains(using name: String) -> [String] {
        channels.all.flatMap { channel in
            ChainTarget.allCases.compactMap { target -> String? in
                let chain = target == .program ? channel.session.selection.chain : channel.session.studio.previewChain
                let uses = chain?.links.contains { $0.name == LUTFilter.descriptor.name && $0.choices["lut"] == name } ?? false
                return uses ? "channel \(channel.name)'s \(target.rawValue)" : nil
            }
        }
    }

    private func refusalToAdd(_ name: String, to library: LUTLibrary) -> UploadStep? {
        if library.contains(name) { return .refuse(409, "a LUT named '\(name)' exists already") }
        if library.count >= LUTLibrary.capacity { return .refuse(507, "the server holds \(library.count) LUTs, the most it takes") }
        return nil
    }
}
