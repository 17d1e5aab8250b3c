import CastProtocol
import CWebSockets
import Foundation
import Logging
import MediaKit

extension WebSocketServer {
    /// Dispatches one lws event (service thread).
    func handle(_ wsi: OpaquePointer, _ reason: lws_callback_reasons, _ user: UnsafeMutableRawPointer?,
                _ data: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
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
            return uploadBody(wsi, data, length)
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return uploadBodyComplete(wsi)
        default:
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
    }

    private func isViewerProtocol(_ wsi: OpaquePointer) -> Bool {
        guard let protocolInfo = lws_get_protocol(wsi), let name = protocolInfo.pointee.name else { return false }
        return strcmp(name, ProtocolVersion.subprotocol) == 0
    }

    // MARK: - Clients

    /// Whether `--max-clients` viewers and MJPEG readers are connected (then logs the refusal
    /// of `wsi`).
    func atClientLimit(_ wsi: OpaquePointer) -> Bool {
        guard viewerCount + mjpegReaderCount >= configuration.maxClients else { return false }
        Log.warning("client refused: --max-clients reached",
                    ["address": .string(peerAddress(wsi)), "max_clients": .int(configuration.maxClients)])
        return true
    }

    private func disconnected(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        switch connection.kind {
        case .viewer:
            logDisconnected(connection)
            sharerLeft(wsi)
            broadcastState()
        case .mjpeg:
            logDisconnected(connection)
        case .upload(let receiver):
            uploadClosed(receiver)
        case .response, .snapshot, .file:
            break
        }
        audienceChanged()
    }

    /// One line per viewer or MJPEG reader that connects.
    func logConnected(_ connection: Connection) {
        Log.info("client connected", ["client": .string(connection.kindName), "address": .string(connection.address),
                                      "viewers": .int(viewerCount), "mjpeg_readers": .int(mjpegReaderCount)])
    }

    /// One line per viewer or MJPEG reader that leaves, with the frame rate it got over its lifetime.
    private func logDisconnected(_ connection: Connection) {
        let seconds = connection.connectedAt.duration(to: .now).seconds
        let fps = seconds > 0 ? Double(connection.framesSent) / seconds : 0
        Log.info("client disconnected", [
            "client": .string(connection.kindName), "address": .string(connection.address),
            "seconds": .double((seconds * 10).rounded() / 10), "frames": .int(connection.framesSent),
            "fps": .double((fps * 10).rounded() / 10), "viewers": .int(viewerCount), "mjpeg_readers": .int(mjpegReaderCount),
        ])
    }

    /// Writes `buffer` past its headroom; the result of `lws_write`.
    func write(_ wsi: OpaquePointer, _ buffer: inout [UInt8], _ protocolKind: lws_write_protocol) -> Int32 {
        let count = buffer.count - EncodedFrame.headroom
        let written = buffer.withUnsafeMutableBufferPointer { bytes in
            lws_write(wsi, bytes.baseAddress! + EncodedFrame.headroom, count, protocolKind)
        }
        if written >= 0 { counters.bytesSent.increment(by: UInt64(count)) }
        return written
    }

    /// Counts frame `sequence`, just written in `bytes` to a client whose previous frame was
    /// `previous` (0: none), and the frames the client skipped in between.
    func countSent(_ sequence: UInt64, bytes: Int, after previous: UInt64) {
        counters.framesSent.increment()
        counters.bytesSent.increment(by: UInt64(bytes))
        if previous > 0 && sequence > previous + 1 {
            counters.droppedSlowClient.increment(by: sequence - previous - 1)
        }
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
    /// send queue: what waits in the link's buffers), 0 if unknown.
    func queuedBytes(_ wsi: OpaquePointer) -> Int {
        var queued: Int32 = 0
        guard ioctl(lws_get_socket_fd(wsi), UInt(TIOCOUTQ), &queued) == 0 else { return 0 }
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
