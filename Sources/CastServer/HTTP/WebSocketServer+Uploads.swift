import CWebSockets
import Foundation
import Logging
import MediaKit

/// `PUT` (or `POST`) `/api/uploads/NAME`: a video file from a controlling client, its raw body
/// streamed by lws' body callbacks into a hidden file of the `--uploads` folder, probed on a
/// thread of its own (``UploadProbe``), then placed under NAME (201) or removed (415).
///
/// Bounds: the size is announced (`Content-Length`, 411 without) and checked against
/// `--max-upload-size` and the free disk before the body is taken (413); at most
/// ``UploadPolicy/concurrentLimit`` uploads at once (503); a body that stalls for
/// ``uploadStallSeconds`` is cut and removed. Service thread only, like all lws calls.
extension WebSocketServer {
    /// A body that sends nothing for this long is cut off (and its file removed).
    static let uploadStallSeconds: Int32 = 10
    /// How long the client waits for the probe's answer (``UploadProbe/timeLimit`` and some).
    static let uploadAnswerSeconds: Int32 = 30
    /// How long a refused upload's body is drained before the connection is closed: long
    /// enough for the client to read the refusal, short enough that a huge body is not taken.
    static let refusedBodySeconds: Int32 = 2

    /// An upload to NAME the router admitted (the route is there with `--uploads`, the origin and
    /// the access were checked): its name and size are checked, then lws delivers its body.
    func uploadRequest(_ wsi: OpaquePointer, name: String) -> Int32 {
        guard let desk = uploadDesk, let folder = core.session.library?.uploads else {
            return refuseUpload(wsi, 404, "this server takes no uploads (--uploads)")
        }
        do throws(UploadPolicy.Refusal) {
            let validName = try UploadPolicy.validatedName(name)
            let length = lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0
                ? header(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) : nil
            let size = try desk.policy.admittedSize(contentLength: length, freeBytes: folder.freeBytes() - desk.pendingBytes)
            guard desk.underWay.count < UploadPolicy.concurrentLimit else {
                throw UploadPolicy.Refusal(status: 503, message: "\(UploadPolicy.concurrentLimit) uploads are under way; try again when one ends")
            }
            return startUpload(wsi, name: validName, size: size, desk: desk, folder: folder)
        } catch {
            return refuseUpload(wsi, error.status, error.message)
        }
    }

    private func startUpload(_ wsi: OpaquePointer, name: String, size: Int64, desk: UploadDesk, folder: UploadFolder) -> Int32 {
        let temporary: (path: String, descriptor: Int32)
        switch folder.createTemporary() {
        case .success(let created): temporary = created
        case .failure(let error): return refuseUpload(wsi, 500, error.description)
        }
        let receiver = UploadReceiver(id: desk.makeID(), name: name, temporary: temporary, expected: size, wsi: wsi)
        desk.underWay[receiver.id] = receiver
        connections[wsi] = Connection(kind: .upload(receiver), address: peerAddress(wsi))
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.uploadStallSeconds)
        if header(wsi, WSI_TOKEN_HTTP_EXPECT).lowercased() == "100-continue", !sendContinue(wsi) { return -1 }
        Log.info("upload started", ["address": .string(peerAddress(wsi)), "name": .string(name), "bytes": .int(Int(size))])
        return 0
    }

    /// `100 Continue` to a client that waits for it before its body (curl does, for bodies over
    /// 1 MB: it would wait a second otherwise). lws does not send it; refusals are the final
    /// answer instead, as RFC 9110 allows.
    private func sendContinue(_ wsi: OpaquePointer) -> Bool {
        var line = [UInt8](repeating: 0, count: EncodedFrame.headroom) + Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        return write(wsi, &line, LWS_WRITE_HTTP_HEADERS) == Int32(line.count - EncodedFrame.headroom)
    }

    /// `LWS_CALLBACK_HTTP_BODY`: one piece of an admitted upload's body, written to its file.
    /// (A refused upload's body is drained by lws: no connection entry, nothing written.)
    func uploadBody(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard let receiver = connections[wsi]?.upload, case .receiving = receiver.phase else { return 0 }
        guard let data, receiver.append(data, count: length) else {
            return failUpload(wsi, receiver, 507, "the upload could not be written to disk (\(String(cString: strerror(errno))))")
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.uploadStallSeconds)
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: the whole body is on disk; the probe starts.
    func uploadBodyComplete(_ wsi: OpaquePointer) -> Int32 {
        guard let desk = uploadDesk, let receiver = connections[wsi]?.upload, case .receiving = receiver.phase else { return 0 }
        guard receiver.finishWriting() else {
            return failUpload(wsi, receiver, 500, "the upload could not be written to disk")
        }
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.uploadAnswerSeconds)
        desk.probe(receiver) { [self] in wake() }
        return 0
    }

    /// Answers the uploads whose probes finished (from `serviceWoken`): those whose client left
    /// are removed.
    func answerProbedUploads() {
        guard let desk = uploadDesk else { return }
        for (receiver, result) in desk.takeFinished() {
            guard case .probing(abandoned: false) = receiver.phase, connections[receiver.wsi]?.upload === receiver else {
                receiver.discard()
                core.counters.uploads.count(.abandoned)
                continue
            }
            connections[receiver.wsi] = nil
            answer(receiver, result)
        }
    }

    private func answer(_ receiver: UploadReceiver, _ result: Result<UploadProbe.Report, MediaError>) {
        let wsi = receiver.wsi
        let report: UploadProbe.Report
        switch result {
        case .success(let accepted): report = accepted
        case .failure(let error):
            // The message names the temporary file: say the upload's name instead.
            let message = error.description.replacingOccurrences(of: receiver.temporaryPath, with: "'\(receiver.name)'")
            _ = failUpload(wsi, receiver, 415, message, result: .notVideo)
            return
        }
        guard let folder = core.session.library?.uploads else { return }
        let name: String
        do {
            name = try folder.place(receiver.temporaryPath, as: receiver.name)
        } catch {
            _ = failUpload(wsi, receiver, 500, error.description)
            return
        }
        receiver.phase = .done
        core.counters.uploads.count(.accepted)
        Log.info("upload stored", ["name": .string(name), "bytes": .int(Int(receiver.expected)), "codec": .string(report.codec),
                                   "width": .int(report.width), "height": .int(report.height)])
        struct Stored: Encodable {
            let source: String, name: String, size: Int64, duration: Double?, width: Int, height: Int
        }
        let stored = Stored(source: "uploads/" + name, name: name, size: receiver.expected, duration: report.duration,
                            width: report.width, height: report.height)
        if respond(wsi, code: 201, body: JSONBody.encoded(stored), type: "application/json", headOnly: false) != 0 {
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC)
        }
    }

    /// Ends an admitted upload with an error status: its file removed, the rest of its body
    /// (if any) drained by lws for a moment.
    private func failUpload(_ wsi: OpaquePointer, _ receiver: UploadReceiver, _ code: UInt32, _ message: String,
                            result: UploadCounters.Result = .failed) -> Int32 {
        receiver.discard()
        uploadDesk?.underWay[receiver.id] = nil
        connections[wsi] = nil
        Log.info("upload refused", ["name": .string(receiver.name), "status": .int(Int(code)), "reason": .string(message)])
        return refuseUpload(wsi, code, message, result: result)
    }

    /// An error status for an upload, counted; a body still arriving is drained for
    /// ``refusedBodySeconds`` at most.
    func refuseUpload(_ wsi: OpaquePointer, _ code: UInt32, _ message: String, headers: [(String, String)] = [],
                              result: UploadCounters.Result = .refused) -> Int32 {
        core.counters.uploads.count(result)
        guard status(wsi, code, message, headers: headers) == 0 else { return -1 }
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.refusedBodySeconds)
        return 0
    }

    /// The client of an upload left (`LWS_CALLBACK_CLOSED_HTTP`).
    func uploadClosed(_ receiver: UploadReceiver) {
        if case .receiving = receiver.phase {
            Log.info("upload cut short", ["name": .string(receiver.name), "received": .int(Int(receiver.received)),
                                          "expected": .int(Int(receiver.expected))])
            core.counters.uploads.count(.cutShort)
        }
        uploadDesk?.abandon(receiver)
    }
}
