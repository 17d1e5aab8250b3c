import Foundation
import Logging
import MediaKit

/// `PUT` (or `POST`) `/api/uploads/NAME` once the router admitted it: a video file from a
/// controlling client, its raw body written piece by piece into a hidden file of the `--uploads`
/// folder (``UploadReceiver``), probed on a thread of its own (``UploadProbe``), then placed
/// under NAME (201) or removed (415).
///
/// Bounds: the size is announced (`Content-Length`, 411 without) and checked against
/// `--max-upload-size` and the free disk before the body is taken (413); at most
/// ``UploadPolicy/concurrentLimit`` uploads at once (503). The adapter bounds the time (a body
/// that stalls is cut: ``uploadAbandoned(_:)``).
extension ServerCore {
    /// `--uploads`: one folder for every channel (each channel's library has it).
    var uploadFolder: UploadFolder? { channels.defaultChannel.session.library?.uploads }

    /// The router admitted an upload to `name` on connection `id` (`request`: its headers).
    func uploadAdmitted(_ id: ConnectionID, name: String, request: HTTPRequest) -> BodyStep {
        guard let policy = uploadPolicy, let folder = uploadFolder else {
            return refuseUpload(BodyRefusal(404, "this server takes no uploads (--uploads)"))
        }
        let underWay = bodies.all(UploadReceiver.self)
        do throws(UploadPolicy.Refusal) {
            let validName = try UploadPolicy.validatedName(name)
            let length = request.header(.contentLength)
            let size = try policy.admittedSize(contentLength: length.isEmpty ? nil : length,
                                               freeBytes: folder.freeBytes() - underWay.reduce(0) { $0 + $1.bytesToCome })
            guard underWay.count < UploadPolicy.concurrentLimit else {
                throw UploadPolicy.Refusal(status: 503, message: "\(UploadPolicy.concurrentLimit) uploads are under way; try again when one ends")
            }
            switch folder.createTemporary() {
            case .success(let temporary):
                Log.info("upload started", ["address": .string(request.address), "name": .string(validName), "bytes": .int(Int(size))])
                return takeBody(UploadReceiver(name: validName, temporary: temporary, expected: size), on: id, request: request)
            case .failure(let error):
                return refuseUpload(BodyRefusal(500, error.description))
            }
        } catch {
            return refuseUpload(BodyRefusal(error.status, error.message))
        }
    }

    /// The probe's verdict on `receiver`'s file: placed under its name (201), or removed.
    func placeUpload(_ receiver: UploadReceiver, _ result: Result<UploadProbe.Report, MediaError>) -> BodyStep {
        let report: UploadProbe.Report
        switch result {
        case .success(let accepted): report = accepted
        case .failure(let error):
            // The message names the temporary file: say the upload's name instead.
            let message = error.description.replacingOccurrences(of: receiver.temporaryPath, with: "'\(receiver.name)'")
            return failUpload(receiver, BodyRefusal(415, message), result: .notVideo)
        }
        guard let folder = uploadFolder else { return failUpload(receiver, BodyRefusal(500, "the uploads folder is gone")) }
        let name: String
        do {
            name = try folder.place(receiver.temporaryPath, as: receiver.name)
        } catch {
            return failUpload(receiver, BodyRefusal(500, error.description))
        }
        receiver.phase = .done
        counters.uploads.count(.accepted)
        Log.info("upload stored", ["name": .string(name), "bytes": .int(Int(receiver.expected)), "codec": .string(report.codec),
                                   "width": .int(report.width), "height": .int(report.height)])
        struct Stored: Encodable {
            let source: String, name: String, size: Int64, duration: Double?, width: Int, height: Int
        }
        return .answer(201, JSONBody.encoded(Stored(source: "uploads/" + name, name: name, size: receiver.expected,
                                                    duration: report.duration, width: report.width, height: report.height)))
    }

    /// An upload's client left (or its body stalled): its file is removed — once probed, when a probe ran.
    func uploadAbandoned(_ receiver: UploadReceiver) {
        switch receiver.phase {
        case .receiving:
            Log.info("upload cut short", ["name": .string(receiver.name), "received": .int(Int(receiver.received)),
                                          "expected": .int(Int(receiver.expected))])
            counters.uploads.count(.cutShort)
        case .probing:
            counters.uploads.count(.abandoned)
        case .done:
            return
        }
        receiver.discard()
    }

    /// An upload refused before its body, counted.
    func refuseUpload(_ refusal: BodyRefusal, result: UploadCounters.Result = .refused) -> BodyStep {
        counters.uploads.count(result)
        return refusal.step
    }

    /// Ends an admitted upload with an error: its file removed.
    func failUpload(_ receiver: UploadReceiver, _ refusal: BodyRefusal, result: UploadCounters.Result = .failed) -> BodyStep {
        receiver.discard()
        Log.info("upload refused", ["name": .string(receiver.name), "status": .int(Int(refusal.code)), "reason": .string(refusal.message)])
        return refuseUpload(refusal, result: result)
    }
}
