import CastServer
import CWebSockets
import Foundation
import Logging

/// Files as HTTP bodies (the page's files and the recordings), with single byte ranges so that
/// a `<video>` can seek in a download and a client can resume one.
/// A download whose reader takes nothing for `--http-timeout` is closed (downloads do not count
/// against `--max-clients`: time bounds them).
extension WebSocketServer {
    /// Answers with the file at `path` — whole (200), the one range `Range:` asks for (206), or
    /// 416 when that range lies past the end. HEAD gets the same headers without the body.
    /// `If-Range` is honoured only when it repeats the file's `Last-Modified`; otherwise the
    /// whole file is sent (the file changed since the client's first part).
    func serveFile(_ wsi: OpaquePointer, path: String, mimeType: String, framable: Bool = false) -> Int32 {
        guard let download = FileDownload(path: path) else { return status(wsi, 404, "not found") }
        let ifRange = header(wsi, WSI_TOKEN_HTTP_IF_RANGE)
        let rangeHeader = ifRange.isEmpty || ifRange == download.lastModified ? header(wsi, WSI_TOKEN_HTTP_RANGE) : ""
        var headers = [("accept-ranges:", "bytes"), ("last-modified:", download.lastModified)]
        var code: UInt32 = 200
        switch ByteRange.select(rangeHeader.isEmpty ? nil : rangeHeader, size: download.size) {
        case .whole:
            break
        case .part(let offset, let count):
            download.restrict(offset: offset, count: count)
            headers.append(("content-range:", "bytes \(offset)-\(offset + count - 1)/\(download.size)"))
            code = 206
        case .unsatisfiable:
            return status(wsi, 416, "the range is past the end of the file (\(download.size) bytes)",
                          headers: [("content-range:", "bytes */\(download.size)")])
        }
        guard writeHeaders(wsi, status: code, type: mimeType, length: download.remaining, headers: headers,
                           framable: framable) else {
            return -1
        }
        let isHead = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0
        if isHead || download.remaining == 0 { return lws_http_transaction_completed(wsi) != 0 ? -1 : 0 }
        connections[wsi] = Connection(kind: .file(download), address: "")
        lws_callback_on_writable(wsi)
        return 0
    }

    /// Writes the next piece of a download; the last one completes the transaction.
    func writeFilePiece(_ wsi: OpaquePointer, _ download: FileDownload) -> Int32 {
        guard let piece = download.nextPiece() else {
            Log.warning("download cut short: the file shrank or could not be read",
                        ["address": .string(peerAddress(wsi)), "offset": .int(Int(download.offset))])
            return -1
        }
        let written = lws_write(wsi, piece.buffer, piece.count, piece.isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP)
        if written < piece.count { return -1 }
        core.counters.bytesSent.increment(by: UInt64(piece.count))
        // lws would end the response `timeout_secs` after the request whatever its progress: a
        // download is cut only when its reader takes nothing for that long.
        lws_set_timeout(wsi, PENDING_TIMEOUT_HTTP_CONTENT, configuration.httpTimeoutSeconds)
        guard piece.isLast else {
            lws_callback_on_writable(wsi)
            return 0
        }
        connections[wsi] = nil
        return lws_http_transaction_completed(wsi) != 0 ? -1 : 0
    }
}
