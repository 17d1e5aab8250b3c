import CastServer
import CastProtocol
import CWebSockets
import Foundation

/// The lws side of `/ws` viewers: each event becomes a call on the core, and what it hands back
/// becomes `lws_write`, `lws_close_reason` or `lws_return_http_status`.
extension WebSocketServer {
    /// Before the upgrade: the core admits or refuses (over the limit, a foreign origin). Nonzero refuses.
    func admitViewer(_ wsi: OpaquePointer) -> Int32 {
        guard let refusal = core.admit(httpRequestValue(wsi, path: "/ws")), case .status(let code, let message, _) = refusal else {
            return 0
        }
        _ = lws_return_http_status(wsi, code, message)
        return -1
    }

    func viewerConnected(_ wsi: OpaquePointer) {
        core.viewerConnected(id(wsi), token: urlArgument(wsi, "token"), address: peerAddress(wsi),
                             channel: urlArgument(wsi, "channel"), person: urlArgument(wsi, "person"),
                             personName: urlArgument(wsi, "name"))
    }

    /// `LWS_CALLBACK_RECEIVE`: one fragment of a message.
    func received(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) {
        let isBinary = lws_frame_is_binary(wsi) != 0
        let isLast = lws_is_final_fragment(wsi) != 0 && (isBinary || lws_remaining_packet_payload(wsi) == 0)
        let fragment = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)
        core.received(id(wsi), fragment, isBinary: isBinary, isLast: isLast, roundTrip: { roundTrip(wsi) })
    }

    /// `LWS_CALLBACK_SERVER_WRITEABLE`: one message per callback, the one the core hands over.
    func writeToViewer(_ wsi: OpaquePointer) -> Int32 {
        let outcome = core.writeViewer(id(wsi)) { bytes, count, kind in
            Int(lws_write(wsi, bytes, count, kind == .text ? LWS_WRITE_TEXT : LWS_WRITE_BINARY)) >= count
        }
        switch outcome {
        case .written:
            return 0
        case .failed:
            return -1
        case .close(let status, let reason):
            var reasonBytes = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(status)), &reasonBytes, reasonBytes.count)
            return -1
        }
    }

    /// The core's name for a connection.
    func id(_ wsi: OpaquePointer) -> ConnectionID { Int(bitPattern: UnsafeRawPointer(wsi)) }

    /// The connection the core names `id` (one it was told of, still open).
    func wsi(_ id: ConnectionID) -> OpaquePointer? { OpaquePointer(bitPattern: id) }

    /// Asks lws for a writable callback for every connection the core wants to write to.
    func flushWriteRequests() {
        for id in core.takeWriteRequests() {
            if let wsi = wsi(id) { lws_callback_on_writable(wsi) }
        }
    }
}
