import CastServer
import CWebSockets
import Foundation

/// The lws side of pending requests (``ServerCore`` decides; see `ServerCore+HTTP`): a body's
/// pieces to the core, `100 Continue`, the answers, and the time bounds — a body that stalls for
/// `--http-timeout` is cut (lws closes it: the core lets the body go).
extension WebSocketServer {
    /// How long the client waits for the probe's answer (``UploadProbe/timeLimit`` and some).
    static let uploadAnswerSeconds: Int32 = 30
    /// How long a refused upload's body is drained before the connection is closed: long
    /// enough for the client to read the refusal, short enough that a huge body is not taken.
    static let refusedBodySeconds: Int32 = 2

    /// `LWS_CALLBACK_HTTP_BODY`: one piece of an admitted request's body.
    func bodyPiece(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        perform(core.bodyPiece(id(wsi), UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)), wsi)
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: the whole body came; its check starts.
    func bodyComplete(_ wsi: OpaquePointer) -> Int32 {
        perform(core.bodyComplete(id(wsi)), wsi)
    }

    /// Writes the answers of the pending requests whose checks, or channels' openings and
    /// removals, finished (from `serviceWoken`).
    func answerPendingRequests() {
        for (id, step) in core.takeBodyAnswers() {
            guard let wsi = wsi(id) else { continue }
            if perform(step, wsi) != 0 { lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC) }
        }
    }

    /// What the core says to do next with an upload's connection.
    func perform(_ step: BodyStep, _ wsi: OpaquePointer) -> Int32 {
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
        var line = withHeadroom(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
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
