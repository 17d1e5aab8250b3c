import CastServer
import CastProtocol
import CWebSockets
import FilterKit
import Foundation
import Logging
import Telemetry

/// HTTP on the same port as `/ws`: the page, the JSON API, snapshots, MJPEG and health.
extension WebSocketServer {
    static let mjpegBoundary = "filtercastframe"

    /// `LWS_CALLBACK_HTTP`: the request goes through the route table; its answer is written.
    func httpRequest(_ wsi: OpaquePointer, path: String) -> Int32 {
        let request = httpRequestValue(wsi, path: path)
        if Log.enabled(.debug), request.method == .get || request.method == .head {
            Log.debug("http request", ["address": .string(request.address), "method": .string(request.method.rawValue),
                                       "path": .string(path)])
        }
        let answer = core.answer(request)
        if request.changes, case .status(let code, let message, let headers) = answer {
            return refuse(wsi, code, message, headers: headers)
        }
        switch answer {
        case .body(let code, let type, let bytes):
            return respond(wsi, code: code, body: bytes, type: type, headOnly: request.isHead)
        case .status(let code, let message, let headers):
            return status(wsi, code, message, headers: headers)
        case .file(let path, let mimeType, let framable):
            return serveFile(wsi, path: path, mimeType: mimeType, framable: framable)
        case .snapshot(let channel, let rendition):
            return awaitSnapshot(wsi, of: channel, rendition: rendition, headOnly: request.isHead)
        case .mjpeg(let channel, let rendition):
            return startMJPEG(wsi, of: channel, rendition: rendition)
        case .pending(let pending):
            return perform(core.start(pending, on: id(wsi), request), wsi)
        }
    }

    /// The request lws holds for `wsi`, as the router reads it (within this callback only).
    func httpRequestValue(_ wsi: OpaquePointer, path: String) -> HTTPRequest {
        let method: HTTPRequest.Method =
            if lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 { .get }
            else if lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0 { .head }
            else if lws_hdr_total_length(wsi, WSI_TOKEN_PUT_URI) > 0 { .put }
            else if lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 { .post }
            else if lws_hdr_total_length(wsi, WSI_TOKEN_DELETE_URI) > 0 { .delete }
            else { .other }
        let pathOnly = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return HTTPRequest(method: method, path: pathOnly, queryLength: Int(lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS)),
                           address: peerAddress(wsi), argument: { [self] in urlArgument(wsi, $0) },
                           header: { [self] in header(wsi, Self.token(of: $0)) })
    }

    /// lws' name of a header the routes read.
    private static func token(of header: HTTPRequest.Header) -> lws_token_indexes {
        switch header {
        case .authorization: WSI_TOKEN_HTTP_AUTHORIZATION
        case .origin: WSI_TOKEN_ORIGIN
        case .host: WSI_TOKEN_HOST
        case .range: WSI_TOKEN_HTTP_RANGE
        case .ifRange: WSI_TOKEN_HTTP_IF_RANGE
        case .contentLength: WSI_TOKEN_HTTP_CONTENT_LENGTH
        case .expect: WSI_TOKEN_HTTP_EXPECT
        }
    }

    /// `/snapshot.jpg` of `channel`, as the core decides (``ServerCore/snapshotAsked(_:of:rendition:)``):
    /// a picture at once, 503, or the request waits (as an audience of one) for the next.
    private func awaitSnapshot(_ wsi: OpaquePointer, of channel: Channel, rendition: Int, headOnly: Bool) -> Int32 {
        let newest = channel.outputs.jpeg[rendition]!.broadcaster.latestSequence ?? 0
        switch core.snapshotAsked(id(wsi), of: channel, rendition: rendition) {
        case .now(let jpeg):
            return respond(wsi, body: jpeg, type: "image/jpeg", headOnly: headOnly)
        case .unavailable(let reason):
            return status(wsi, 503, reason)
        case .wait:
            break
        }
        let waiting = Connection(kind: .snapshot(channel, rendition: rendition, headOnly: headOnly), address: peerAddress(wsi))
        waiting.lastSent = newest
        connections[wsi] = waiting
        // A source that produces nothing (failed, offline, a live stream not sending) must not
        // keep the request open for ever.
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, configuration.httpTimeoutSeconds)
        return 0
    }

    func httpWritable(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi] else { return 0 }
        if connection.closing { return -1 }
        switch connection.kind {
        case .response:
            if var body = connection.body, !connection.headOnly {
                if write(wsi, &body, LWS_WRITE_HTTP_FINAL) < 0 { return -1 }
            }
            connection.body = nil
            connections[wsi] = nil
            return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
        case .mjpeg(let channel, let rendition):
            return writeMJPEGPart(wsi, connection, channel.outputs.jpeg[rendition]!.broadcaster)
        case .file(let download):
            return writeFilePiece(wsi, download)
        case .snapshot:
            return 0
        }
    }

    /// Answers `GET /snapshot.jpg` with the latest frame of `channel`'s JPEG rendition `rendition`.
    func answerSnapshot(_ wsi: OpaquePointer, of channel: Channel, rendition: Int, headOnly: Bool) {
        connections[wsi] = nil
        core.watcherLeft(id(wsi))
        guard let jpeg = core.snapshotPicture(of: channel, rendition: rendition) else {
            if status(wsi, 503, "no frame yet") != 0 { lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC) }
            return
        }
        if respond(wsi, body: jpeg, type: "image/jpeg", headOnly: headOnly) != 0 {
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC)
        }
    }

    /// Sends headers (status `code`) now and `body` at the next writable callback.
    func respond(_ wsi: OpaquePointer, code: UInt32 = 200, body: [UInt8], type: String, headOnly: Bool) -> Int32 {
        guard writeHeaders(wsi, status: code, type: type, length: UInt64(body.count)) else { return -1 }
        let connection = Connection(kind: .response, address: "")
        connection.body = withHeadroom(body)
        connection.headOnly = headOnly
        connections[wsi] = connection
        lws_callback_on_writable(wsi)
        return 0
    }

    /// An error status with `message` as a plain-text body, written at once (a request body
    /// may still be arriving). Our own headers rather than `lws_return_http_status`'s, so errors
    /// carry `Cache-Control: no-store` like every answer; `headers` are added (name with colon).
    func status(_ wsi: OpaquePointer, _ code: UInt32, _ message: String, headers: [(String, String)] = []) -> Int32 {
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        let body = Array((message + "\n").utf8)
        guard writeHeaders(wsi, status: code, type: "text/plain; charset=utf-8", length: UInt64(body.count),
                           headers: headers, inlineBody: isHead ? [] : body) else { return -1 }
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }

    /// Status line and headers (the ``SecurityHeaders``, `Cache-Control: no-store`, then
    /// `headers`, each name with its colon); `length` nil for a body of unknown length (MJPEG).
    /// With `inlineBody` the body goes out in the same write as the headers.
    func writeHeaders(_ wsi: OpaquePointer, status: UInt32, type: String, length: UInt64?,
                      headers: [(String, String)] = [], inlineBody: [UInt8]? = nil, framable: Bool = false) -> Bool {
        var buffer = [UInt8](repeating: 0, count: EncodedFrame.headroom + 2048 + (inlineBody?.count ?? 0))
        return buffer.withUnsafeMutableBufferPointer { bytes -> Bool in
            let start = bytes.baseAddress! + EncodedFrame.headroom
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let end = start + 2047
            guard lws_add_http_common_headers(wsi, status, type, length ?? UInt64.max, &cursor, end) == 0 else {
                return false
            }
            for (name, value) in SecurityHeaders.headers(framable: framable) + [("cache-control:", "no-store")] + headers {
                let bytes = Array(value.utf8)
                guard lws_add_http_header_by_name(wsi, name, bytes, Int32(bytes.count), &cursor, end) == 0 else {
                    return false
                }
            }
            guard let inlineBody else { return lws_finalize_write_http_header(wsi, start, &cursor, end) == 0 }
            guard lws_finalize_http_header(wsi, &cursor, end) == 0, var tail = cursor else { return false }
            tail.update(from: inlineBody, count: inlineBody.count)
            tail += inlineBody.count
            let count = tail - start
            return lws_write(wsi, start, count, LWS_WRITE_HTTP_HEADERS) == count
        }
    }

    /// `/stream.mjpg` of `channel`'s JPEG rendition `rendition`: parts for as long as the reader stays.
    private func startMJPEG(_ wsi: OpaquePointer, of channel: Channel, rendition: Int) -> Int32 {
        guard writeHeaders(wsi, status: 200, type: "multipart/x-mixed-replace; boundary=\(Self.mjpegBoundary)",
                           length: nil) else { return -1 }
        // lws would end the response `timeout_secs` after the request: a reader stays, like a
        // viewer, as long as it likes (it counts against --max-clients).
        lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
        let connection = Connection(kind: .mjpeg(channel, rendition: rendition), address: peerAddress(wsi))
        connections[wsi] = connection
        core.watcherJoined(id(wsi), .mjpeg(rendition: rendition), of: channel)
        core.logConnected("mjpeg", address: connection.address, channel: channel)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// One multipart part per writable callback: the newest frame of `broadcaster` (the reader's
    /// rendition), if the reader has not had it.
    private func writeMJPEGPart(_ wsi: OpaquePointer, _ connection: Connection, _ broadcaster: Broadcaster) -> Int32 {
        guard let frame = broadcaster.borrowLatest() else { return 0 }
        defer { broadcaster.giveBack(frame) }
        guard frame.header.sequence > connection.lastSent else { return 0 }
        let partHeader = Array("--\(Self.mjpegBoundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(frame.bodyCount)\r\n\r\n".utf8)
        let size = partHeader.count + frame.bodyCount + 2
        if connection.partBuffer.count < EncodedFrame.headroom + size {
            connection.partBuffer = [UInt8](repeating: 0, count: EncodedFrame.headroom + size + size / 4)
        }
        let written = connection.partBuffer.withUnsafeMutableBufferPointer { bytes -> Int32 in
            let start = bytes.baseAddress! + EncodedFrame.headroom
            start.update(from: partHeader, count: partHeader.count)
            (start + partHeader.count).update(from: frame.body.bindMemory(to: UInt8.self).baseAddress!, count: frame.bodyCount)
            (start + partHeader.count + frame.bodyCount).update(from: [13, 10], count: 2)
            return lws_write(wsi, start, size, LWS_WRITE_HTTP)
        }
        if written < size { return -1 }
        core.countSent(frame.header.sequence, bytes: size, after: connection.lastSent)
        connection.lastSent = frame.header.sequence
        connection.readerFramesSent += 1
        return 0
    }
}
