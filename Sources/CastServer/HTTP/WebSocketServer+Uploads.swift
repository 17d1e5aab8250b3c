import CWebSockets
import Foundation

/// The lws side of uploads (``ServerCore`` decides; see `ServerCore+Uploads`): the body's pieces
/// to the core, `100 Continue`, the answers, and the time bounds — a body that stalls for
/// `--http-timeout` is cut (lws closes it: the core removes its file).
extension WebSocketServer {
    /// How long the client waits for the probe's answer (``UploadProbe/timeLimit`` and some).
    static let uploadAnswerSeconds: Int32 = 30
    /// How long a refused upload's body is drained before the connection is closed: long
    /// enough for the client to read the refusal, short enough that a huge body is not taken.
    static let refusedBodySeconds: Int32 = 2

    /// The router admitted an item for a shelf (`PUT /api/luts/NAME`, `PUT /api/styles/NAME`): its
    /// body is gathered like an upload's.
    func shelfUploadRequest(_ wsi: OpaquePointer, _ request: HTTPRequest, into shelf: some UploadShelf, name: String) -> Int32 {
        perform(core.shelfUploadAdmitted(id(wsi), into: shelf, name: name, request: request), wsi)
    }

    /// The router admitted a channel to add (`PUT /api/channels/NAME`): its JSON body is gathered like a LUT's.
    func channelPutRequest(_ wsi: OpaquePointer, _ request: HTTPRequest, name: String) -> Int32 {
        perform(core.channelPutAdmitted(id(wsi), name: name, request: request), wsi)
    }

    /// The router admitted `DELETE /api/channels/NAME`: answered once the channel stopped.
    func channelDeleteRequest(_ wsi: OpaquePointer, name: String) -> Int32 {
        perform(core.channelDeleted(id(wsi), name: name), wsi)
    }

    /// The router admitted an upload to `name`.
    func uploadRequest(_ wsi: OpaquePointer, _ request: HTTPRequest, name: String) -> Int32 {
        perform(core.uploadAdmitted(id(wsi), name: name, request: request), wsi)
    }

    /// `LWS_CALLBACK_HTTP_BODY`: one piece of an admitted upload's body.
    func uploadBody(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        perform(core.uploadBody(id(wsi), UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)), wsi)
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: the whole body is on disk; the probe starts.
    func uploadBodyComplete(_ wsi: OpaquePointer) -> Int32 {
        perform(core.uploadBodyComplete(id(wsi)), wsi)
    }

    /// Writes the answers of the uploads whose probes, and the shelves' items whose checks, finished (from `serviceWoken`).
    func answerProbedUploads() {
        for (id, answer) in core.takeUploadAnswers() + core.takeShelfAnswers() {
            guard let wsi = wsi(id) else { continue }
            let failed = switch answer {
            case .stored(let body): respond(wsi, code: 201, body: body, type: "application/json", headOnly: false) != 0
            case .refused(let code, let message): refuse(wsi, code, message) != 0
            }
            if failed { lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC) }
        }
        for (id, step) in core.takeChannelAnswers() {
            guard let wsi = wsi(id) else { continue }
            if perform(step, wsi) != 0 { lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC) }
        }
    }

    /// What the core says to do next with an upload's connection.
    private func perform(_ step: ServerCore.UploadStep, _ wsi: OpaquePointer) -> Int32 {
        switch step {
        case .takeBody(let sendContinue):
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, configuration.httpTimeoutSeconds)
            return sendContinue && !self.sendContinue(wsi) ? -1 : 0
        case .receiving:
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, configuration.httpTimeoutSeconds)
            return 0
        case .probing:
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.uploadAnswerSeconds)
            return 0
        case .waiting(let seconds):
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, seconds)
            return 0
        case .refuse(let code, let message):
            return refuse(wsi, code, message)
        case .answer(let code, let body):
            return respond(wsi, code: code, body: body, type: "application/json", headOnly: false)
        }
    }

    /// `100 Continue` to a client that waits for it before its body (curl does, for bodies over
    /// 1 MB: it would wait a second otherwise). lws does not send it; refusals are the final
    /// answer instead, as RFC 9110 allows.
    private func sendContinue(_ wsi: OpaquePointer) -> Bool {
        var line = [UInt8](repeating: 0, count: EncodedFrame.headroom) + Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        return write(wsi, &line, LWS_WRITE_HTTP_HEADERS) == Int32(line.count - EncodedFrame.headroom)
    }

    /// An error status for a request with a body (an upload): a body still arriving is drained
    /// for ``refusedBodySeconds`` at most.
    func refuse(_ wsi: OpaquePointer, _ code: UInt32, _ message: String, headers: [(String, String)] = []) -> Int32 {
        guard status(wsi, code, message, headers: headers) == 0 else { return -1 }
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, Self.refusedBodySeconds)
        return 0
    }
}
