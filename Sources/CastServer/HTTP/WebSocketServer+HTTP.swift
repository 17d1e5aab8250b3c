import CastProtocol
import CWebSockets
import FilterKit
import Foundation
import Logging
import Telemetry

/// HTTP on the same port as `/ws`: the page, the JSON API, snapshots, MJPEG and health.
extension WebSocketServer {
    static let mjpegBoundary = "filtercastframe"

    func httpRequest(_ wsi: OpaquePointer, path: String) -> Int32 {
        let isGet = lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        if lws_hdr_total_length(wsi, WSI_TOKEN_PUT_URI) > 0 || lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0 {
            return uploadRequest(wsi, path: path)
        }
        guard isGet || isHead else { return status(wsi, 405, "only GET and HEAD are served") }
        if Log.enabled(.debug) {
            Log.debug("http request", ["address": .string(peerAddress(wsi)), "method": .string(isGet ? "GET" : "HEAD"),
                                       "path": .string(path)])
        }
        switch path {
        case "/healthz":
            return respond(wsi, body: Array("ok\n".utf8), type: "text/plain; charset=utf-8", headOnly: isHead)
        case "/api/state":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            return respond(wsi, body: encodedJSON(currentState), type: "application/json", headOnly: isHead)
        case "/api/filters":
            return respond(wsi, body: filtersJSON, type: "application/json", headOnly: isHead)
        case "/snapshot.jpg":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            if outputs.fullJPEG.audience.load(ordering: .relaxed) > 0, broadcaster.latestSequence != nil {
                answerSnapshot(wsi, headOnly: isHead)
            } else {
                // Nothing is encoded while nobody watches: wait (as an audience of one) for a frame.
                let waiting = Connection(kind: .snapshot(headOnly: isHead), address: peerAddress(wsi))
                waiting.lastSent = broadcaster.latestSequence ?? 0
                connections[wsi] = waiting
                audienceChanged()
                // A source that produces nothing (failed, offline, a live stream not sending) must not
                // keep the request open for ever.
                lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, 10)
            }
            return 0
        case "/metrics":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            return respond(wsi, body: Array(metrics.exposition().utf8), type: Metrics.contentType, headOnly: isHead)
        case "/stream.mjpg":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            return startMJPEG(wsi)
        case "/api/recordings":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            struct Listing: Encodable { let recordings: [RecordingEntry] }
            let recordings = session.library?.listRecordings() ?? []
            return respond(wsi, body: encodedJSON(Listing(recordings: recordings)), type: "application/json", headOnly: isHead)
        case "/api/media":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            return serveMediaListing(wsi, headOnly: isHead)
        case "/api/uploads":
            guard mayWatch(wsi) else { return tokenRequired(wsi) }
            guard let library = session.library, library.uploads != nil else {
                return status(wsi, 404, "this server takes no uploads (--uploads)")
            }
            struct Listing: Encodable { let uploads: [RecordingEntry] }
            return respond(wsi, body: encodedJSON(Listing(uploads: library.listUploads())), type: "application/json", headOnly: isHead)
        case "/ws":
            return status(wsi, 426, "this is the WebSocket endpoint (subprotocol \(ProtocolVersion.subprotocol))")
        default:
            if let name = Self.recordingName(in: path) {
                guard mayWatch(wsi) else { return tokenRequired(wsi) }
                return serveRecording(wsi, name: name)
            }
            guard let file = files.resolve(path) else { return status(wsi, 404, "not found") }
            return serveFile(wsi, path: file.path, mimeType: file.mimeType)
        }
    }

    /// `NAME` of `/recordings/NAME` or `/api/recordings/NAME` (percent-decoded), else nil.
    static func recordingName(in path: String) -> String? {
        let pathOnly = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        for prefix in ["/recordings/", "/api/recordings/"] where pathOnly.hasPrefix(prefix) {
            return String(pathOnly.dropFirst(prefix.count)).removingPercentEncoding ?? ""
        }
        return nil
    }

    /// A recording as a download: resolved like `open` and `delete` (403 outside the folder, 404
    /// when missing), `video/mp4` with its length.
    private func serveRecording(_ wsi: OpaquePointer, name: String) -> Int32 {
        guard let library = session.library else { return status(wsi, 404, "not found") }
        do {
            let (path, _) = try library.resolve("recordings/" + name)
            return serveFile(wsi, path: path, mimeType: StaticFiles.mimeType(for: path))
        } catch {
            return status(wsi, error.code == .forbidden ? 403 : 404, error.message)
        }
    }

    /// Most bytes of a query string: `urlArgument` reads at most that much of a value, and a
    /// longer `?folder=` must be refused, not taken as absent (the media folder's root).
    static let maximumQuery = 500

    /// `GET /api/media?folder=REL`: one folder of the media folder, as `MediaLibrary.listMedia`
    /// lists it; 404 without a media folder or for a folder that is not there, 403 for a name
    /// outside it.
    private func serveMediaListing(_ wsi: OpaquePointer, headOnly: Bool) -> Int32 {
        guard lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_URI_ARGS) <= Self.maximumQuery else {
            return status(wsi, 414, "the query is too long (at most \(Self.maximumQuery) bytes)")
        }
        do throws(ProtocolError) {
            guard let library = session.library else {
                throw ProtocolError(code: .notFound, message: "this server has no media folder (--media-dir)")
            }
            let listing = try library.listMedia(folder: urlArgument(wsi, "folder") ?? "")
            return respond(wsi, body: encodedJSON(listing), type: "application/json", headOnly: headOnly)
        } catch {
            return status(wsi, error.code == .forbidden ? 403 : 404, error.message)
        }
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
        case .mjpeg(let rendition):
            return writeMJPEGPart(wsi, connection, outputs.jpeg[rendition]!.broadcaster)
        case .file(let download):
            return writeFilePiece(wsi, download)
        case .viewer, .snapshot, .upload:
            return 0
        }
    }

    /// Answers `GET /snapshot.jpg` with the latest frame.
    func answerSnapshot(_ wsi: OpaquePointer, headOnly: Bool) {
        connections[wsi] = nil
        audienceChanged()
        guard let jpeg = broadcaster.latestJPEG() else {
            if status(wsi, 503, "no frame yet") != 0 { lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC) }
            return
        }
        if respond(wsi, body: jpeg, type: "image/jpeg", headOnly: headOnly) != 0 {
            lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, LWS_TO_KILL_ASYNC)
        }
    }

    private var filtersJSON: [UInt8] {
        struct Catalog: Encodable { let filters: [FilterDescriptor] }
        return encodedJSON(Catalog(filters: session.catalog.descriptors))
    }

    func encodedJSON(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { Array($0) } ?? []
    }

    /// Whether the request may see the session: no `--token`, `--public-view`, or the token as
    /// `?token=` or as `Authorization: Bearer` (what Prometheus and most HTTP tools send).
    private func mayWatch(_ wsi: OpaquePointer) -> Bool {
        configuration.publicView || mayControl(wsi)
    }

    /// Whether the request may change things (uploads): no `--token`, or the token as `?token=`
    /// or `Authorization: Bearer` (`--public-view` lets watch, not control).
    func mayControl(_ wsi: OpaquePointer) -> Bool {
        guard let accessToken else { return true }
        let bearer = AccessToken.bearerCredentials(in: header(wsi, WSI_TOKEN_HTTP_AUTHORIZATION))
        return accessToken.accepts(urlArgument(wsi, "token")) || accessToken.accepts(bearer)
    }

    /// 401, with the challenge RFC 9110 asks of it.
    private func tokenRequired(_ wsi: OpaquePointer) -> Int32 {
        status(wsi, 401, Self.tokenRequiredMessage, headers: Self.tokenChallenge)
    }

    /// A 401's text and its challenge (RFC 9110), the same on every endpoint.
    static let tokenRequiredMessage = "token required (?token=SECRET or Authorization: Bearer SECRET)"
    static let tokenChallenge = [("www-authenticate:", "Bearer realm=\"filtercast\"")]

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

    /// Status line and headers (`Cache-Control: no-store`, then `headers`, each name with its
    /// colon); `length` nil for a body of unknown length (MJPEG). With `inlineBody` the body goes
    /// out in the same write as the headers.
    func writeHeaders(_ wsi: OpaquePointer, status: UInt32, type: String, length: UInt64?,
                      headers: [(String, String)] = [], inlineBody: [UInt8]? = nil) -> Bool {
        var buffer = [UInt8](repeating: 0, count: EncodedFrame.headroom + 2048 + (inlineBody?.count ?? 0))
        return buffer.withUnsafeMutableBufferPointer { bytes -> Bool in
            let start = bytes.baseAddress! + EncodedFrame.headroom
            var cursor: UnsafeMutablePointer<UInt8>? = start
            let end = start + 2047
            guard lws_add_http_common_headers(wsi, status, type, length ?? UInt64.max, &cursor, end) == 0 else {
                return false
            }
            for (name, value) in [("cache-control:", "no-store")] + headers {
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

    /// `/stream.mjpg`, of the JPEG rendition nearest to `?width=` (default: full size).
    private func startMJPEG(_ wsi: OpaquePointer) -> Int32 {
        if atClientLimit(wsi) { return status(wsi, 503, "too many clients") }
        var rendition = 0
        if let width = urlArgument(wsi, "width") {
            guard let pixels = Int(width), (1...16384).contains(pixels) else {
                return status(wsi, 400, "width must be a whole number of pixels, 1 to 16384")
            }
            rendition = outputs.jpegRung(nearestWidth: pixels)
        }
        guard writeHeaders(wsi, status: 200, type: "multipart/x-mixed-replace; boundary=\(Self.mjpegBoundary)",
                           length: nil) else { return -1 }
        // lws would end the response `timeout_secs` after the request: a reader stays, like a
        // viewer, as long as it likes (it counts against --max-clients).
        lws_set_timeout(wsi, NO_PENDING_TIMEOUT, 0)
        let connection = Connection(kind: .mjpeg(rendition: rendition), address: peerAddress(wsi))
        connections[wsi] = connection
        logConnected(connection)
        audienceChanged()
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
        countSent(frame.header.sequence, bytes: size, after: connection.lastSent)
        connection.lastSent = frame.header.sequence
        connection.readerFramesSent += 1
        return 0
    }
}
