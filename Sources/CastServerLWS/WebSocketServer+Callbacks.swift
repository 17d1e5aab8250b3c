import CastServer
import CastProtocol
import CWebSockets
import Foundation
import Logging
import MediaKit

extension WebSocketServer {
    /// Dispatches one lws event (service thread).
    func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        defer { flushWriteRequests() }
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            // Raised once per protocol: act on one of them.
            if isViewerProtocol(wsi) { serviceWoken() }
            return 0
        case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
            return isPlainOnTLSPort(wsi) ? refusePlainUpgrade(wsi) : admitViewer(wsi)
        case LWS_CALLBACK_ESTABLISHED:
            viewerConnected(wsi)
            return 0
        case LWS_CALLBACK_RECEIVE:
            received(wsi, data, length)
            return 0
        case LWS_CALLBACK_SERVER_WRITEABLE:
            return writeToViewer(wsi)
        case LWS_CALLBACK_CLOSED, LWS_CALLBACK_CLOSED_HTTP:
            disconnected(wsi)
            return 0
        case LWS_CALLBACK_HTTP:
            let path = data.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "/"
            return httpRequest(wsi, path: path)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return httpWritable(wsi)
        case LWS_CALLBACK_HTTP_BODY:
            return bodyPiece(wsi, data, length)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return bodyComplete(wsi)
        default:
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
    }

    private func isViewerProtocol(_ wsi: OpaquePointer) -> Bool {
        guard let protocolInfo = lws_get_protocol(wsi), let name = protocolInfo.pointee.name else { return false }
        return strcmp(name, ProtocolVersion.subprotocol) == 0
    }

    // MARK: - Clients

    private func disconnected(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else {
            core.viewerLeft(id(wsi))
            core.bodyClosed(id(wsi))
            return
        }
        switch connection.kind {
        case .mjpeg(let channel, _):
            core.watcherLeft(id(wsi))
            core.logDisconnected("mjpeg", connection.address, channel: channel, since: connection.connectedAt,
                                 frames: connection.readerFramesSent)
        case .snapshot:
            core.watcherLeft(id(wsi))
        case .response, .file:
            break
        }
    }

    /// Writes `buffer` past its headroom; the result of `lws_write`.
    func write(_ wsi: OpaquePointer, _ buffer: inout [UInt8], _ protocolKind: lws_write_protocol) -> Int32 {
        let count = buffer.count - EncodedFrame.headroom
        let written = buffer.withUnsafeMutableBufferPointer { bytes in
            lws_write(wsi, bytes.baseAddress! + EncodedFrame.headroom, count, protocolKind)
        }
        if written >= 0 { core.counters.bytesSent.increment(by: UInt64(count)) }
        return written
    }

    // MARK: - Request helpers

    /// The kernel's smoothed round-trip time of the connection's TCP socket (zero if unknown).
    func roundTrip(_ wsi: OpaquePointer) -> Duration {
        var info = tcp_info()
        var size = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(lws_get_socket_fd(wsi), Int32(IPPROTO_TCP), TCP_INFO, &info, &size) == 0 else { return .zero }
        return .microseconds(Int64(info.tcpi_rtt))
    }

    /// Bytes written to the connection's TCP socket and not yet acknowledged by the peer (its
    /// send queue: what waits in the link's buffers), nil if unknown.
    func queuedBytes(_ wsi: OpaquePointer) -> Int? {
        var queued: Int32 = 0
        guard ioctl(lws_get_socket_fd(wsi), UInt(TIOCOUTQ), &queued) == 0 else { return nil }
        return Int(queued)
    }

    /// A request header's value ("" when absent).
    func header(_ wsi: OpaquePointer, _ token: lws_token_indexes) -> String {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 && length < 4096 else { return "" }
        var buffer = [CChar](repeating: 0, count: length + 1)
        guard lws_hdr_copy(wsi, &buffer, Int32(buffer.count), token) >= 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The value of `?name=` in the request URL, if present.
    func urlArgument(_ wsi: OpaquePointer, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 512)
        guard let value = lws_get_urlarg_by_name(wsi, name + "=", &buffer, Int32(buffer.count)) else { return nil }
        return String(cString: value)
    }

    func peerAddress(_ wsi: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard lws_get_peer_simple(wsi, &buffer, buffer.count) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
