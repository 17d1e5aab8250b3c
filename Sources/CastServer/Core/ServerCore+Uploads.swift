import Foundation
import Logging
import MediaKit

/// `PUT` (or `POST`) `/api/uploads/NAME` once the router admitted it: a video file from a
/// controlling client, its raw body written piece by piece into a hidden file of the `--uploads`
/// folder, probed on a thread of its own (``UploadProbe``), then placed under NAME (201) or
/// removed (415).
///
/// Bounds: the size is announced (`Content-Length`, 411 without) and checked against
/// `--max-upload-size` and the free disk before the body is taken (413); at most
/// ``UploadPolicy/concurrentLimit`` uploads at once (503). The adapter bounds the time (a body
/// that stalls is cut: ``uploadClosed(_:)``).
extension ServerCore {
    /// What the adapter does next with an upload's connection.
    enum UploadStep: Equatable {
        /// Take the body (after `100 Continue` when the client waits for it).
        case takeBody(sendContinue: Bool)
        /// Go on taking it.
        case receiving
        /// The body is whole and probed: the answer comes at a later wake-up (``takeUploadAnswers()``).
        case probing
        /// The answer comes at a later wake-up, within this many seconds (a channel opened or stopped).
        case waiting(seconds: Int32)
        /// Answer this error; a body still arriving is drained a moment, not taken.
        case refuse(UInt32, String)
        /// Answer this status with this JSON body (a channel added or removed).
        case answer(UInt32, [UInt8])
    }

    /// `--uploads`: one folder for every channel (each channel's library has it).
    var uploadFolder: UploadFolder? { channels.defaultChannel.session.library?.uploads }

    /// An HTTP request through the route table; a request with a body (an upload) that a route
    /// refuses is counted as a refused upload.
    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        let answer = router.answer(request)
        if request.method == .put || request.method == .post, !request.path.hasPrefix("/api/channels/"), case .status = answer {
            counters.uploads.count(.refused)
        }
        return answer
    }

    /// The router admitted an upload to `name` on connection `id` (`request`: its headers).
    func uploadAdmitted(_ id: ConnectionID, name: String, request: HTTPRequest) -> UploadStep {
        guard let desk = uploadDesk, let folder = uploadFolder else {
            return refuseUpload(404, "this server takes no uploads (--uploads)")
        }
        do throws(UploadPolicy.Refusal) {
            let validName = try UploadPolicy.validatedName(name)
            let length = request.header(.contentLength)
            let size = try desk.policy.admittedSize(contentLength: length.isEmpty ? nil : length,
                                                    freeBytes: folder.freeBytes() - desk.pendingBytes)
            guard desk.underWay.count < UploadPolicy.concurrentLimit else {
                throw UploadPolicy.Refusal(status: 503, message: "\(UploadPolicy.concurrentLimit) uploads are under way; try again when one ends")
            }
            let temporary: (path: String, descriptor: Int32)
            switch folder.createTemporary() {
            case .success(let created): temporary = created
            case .failure(let error): return refuseUpload(500, error.description)
            }
            let receiver = UploadReceiver(id: desk.makeID(), name: validName, temporary: temporary, expected: size, connection: id)
            desk.underWay[receiver.id] = receiver
            uploads[id] = receiver
            Log.info("upload started", ["address": .string(request.address), "name": .string(validName), "bytes": .int(Int(size))])
            return .takeBody(sendContinue: request.header(.expect).lowercased() == "100-continue")
        } catch {
            return refuseUpload(error.status, error.message)
        }
    }

    /// One piece of an admitted upload's body, written to its file. (A refused upload's body is
    /// drained by the adapter: no upload here, nothing written.)
    func uploadBody(_ id: ConnectionID, _ bytes: UnsafeRawBufferPointer) -> UploadStep {
        if let step = shelfBody(id, bytes) ?? channelBody(id, bytes) { return step }
        guard let receiver = uploads[id], case .receiving = receiver.phase else { return .receiving }
        guard let base = bytes.baseAddress, receiver.append(base, count: bytes.count) else {
            return failUpload(receiver, 507, "the upload could not be written to disk (\(String(cString: strerror(errno))))")
        }
        return .receiving
    }

    /// The whole body is on disk: the probe starts; its result wakes the network thread.
    func uploadBodyComplete(_ id: ConnectionID) -> UploadStep {
        if let step = shelfBodyComplete(id) ?? channelBodyComplete(id) { return step }
        guard let desk = uploadDesk, let receiver = uploads[id], case .receiving = receiver.phase else { return .receiving }
        guard receiver.finishWriting() else { return failUpload(receiver, 500, "the upload could not be written to disk") }
        desk.probe(receiver) { [wake] in wake.ring() }
        return .probing
    }

    /// The answers of the uploads whose probes finished (at a wake-up), by connection: 201 with
    /// what was stored, or the refusal. Those whose client left are removed.
    func takeUploadAnswers() -> [(ConnectionID, UploadAnswer)] {
        guard let desk = uploadDesk else { return [] }
        return desk.takeFinished().compactMap { receiver, result in
            guard case .probing(abandoned: false) = receiver.phase, uploads[receiver.connection] === receiver else {
                receiver.discard()
                counters.uploads.count(.abandoned)
                return nil
            }
            uploads[receiver.connection] = nil
            return (receiver.connection, answer(receiver, result))
        }
    }

    /// An upload's client left (or its body stalled).
    func uploadClosed(_ id: ConnectionID) {
        shelfUploadClosed(id)
        channelRequestClosed(id)
        guard let receiver = uploads.removeValue(forKey: id) else { return }
        if case .receiving = receiver.phase {
            Log.info("upload cut short", ["name": .string(receiver.name), "received": .int(Int(receiver.received)),
                                          "expected": .int(Int(receiver.expected))])
            counters.uploads.count(.cutShort)
        }
        uploadDesk?.abandon(receiver)
    }

    /// An upload refused before its body, counted.
    func refuseUpload(_ code: UInt32, _ message: String, result: UploadCounters.Result = .refused) -> UploadStep {
        counters.uploads.count(result)
        return .refuse(code, message)
    }

    /// Ends an admitted upload with an error: its file removed.
    private func failUpload(_ receiver: UploadReceiver, _ code: UInt32, _ message: String,
                            result: UploadCounters.Result = .failed) -> UploadStep {
        receiver.discard()
        uploadDesk?.underWay[receiver.id] = nil
        uploads[receiver.connection] = nil
        Log.info("upload refused", ["name": .string(receiver.name), "status": .int(Int(code)), "reason": .string(message)])
        return refuseUpload(code, message, result: result)
    }
}

/// How a probed upload is answered.
enum UploadAnswer: Equatable {
    /// 201 with this JSON: where it was stored.
    case stored([UInt8])
    /// The refusal (415: not a video; 500: it could not be placed).
    case refused(UInt32, String)
}

extension ServerCore {
    /// The probe's verdict on `receiver`'s file: placed under its name, or removed.
    private func answer(_ receiver: UploadReceiver, _ result: Result<UploadProbe.Report, MediaError>) -> UploadAnswer {
        let report: UploadProbe.Report
        switch result {
        case .success(let accepted): report = accepted
        case .failure(let error):
            // The message names the temporary file: say the upload's name instead.
            return refused(receiver, 415, error.description.replacingOccurrences(of: receiver.temporaryPath, with: "'\(receiver.name)'"),
                           result: .notVideo)
        }
        guard let folder = uploadFolder else { return refused(receiver, 500, "the uploads folder is gone") }
        let name: String
        do {
            name = try folder.place(receiver.temporaryPath, as: receiver.name)
        } catch {
            return refused(receiver, 500, error.description)
        }
        receiver.phase = .done
        counters.uploads.count(.accepted)
        Log.info("upload stored", ["name": .string(name), "bytes": .int(Int(receiver.expected)), "codec": .string(report.codec),
                                   "width": .int(report.width), "height": .int(report.height)])
        struct Stored: Encodable {
            let source: String, name: String, size: Int64, duration: Double?, width: Int, height: Int
        }
        return .stored(JSONBody.encoded(Stored(source: "uploads/" + name, name: name, size: receiver.expected,
                                               duration: report.duration, width: report.width, height: report.height)))
    }

    private func refused(_ receiver: UploadReceiver, _ code: UInt32, _ message: String,
                         result: UploadCounters.Result = .failed) -> UploadAnswer {
        receiver.discard()
        Log.info("upload refused", ["name": .string(receiver.name), "status": .int(Int(code)), "reason": .string(message)])
        counters.uploads.count(result)
        return .refused(code, message)
    }
}
