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
            return admitViewer(wsi)
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
        default:
            return lws_callback_http_dummy(wsi, reason, user, data, length)
        }
    }

    private func isViewerProtocol(_ wsi: OpaquePointer) -> Bool {
        guard let protocolInfo = lws_get_protocol(wsi), let name = protocolInfo.pointee.name else { return false }
        return strcmp(name, ProtocolVersion.subprotocol) == 0
    }

    // MARK: - WebSocket viewers

    /// Before the upgrade: refuse foreign origins and connections over the limit. Nonzero refuses.
    /// (A client without the token may connect: it can send `auth` first.)
    private func admitViewer(_ wsi: OpaquePointer) -> Int32 {
        if atClientLimit(wsi) {
            _ = lws_return_http_status(wsi, 503, "too many clients")
            return -1
        }
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        if !origin.isEmpty && !OriginPolicy.allows(origin: origin, host: header(wsi, WSI_TOKEN_HOST),
                                                   allowed: configuration.allowedOrigins) {
            Log.warning("client refused: origin not allowed", ["address": .string(peerAddress(wsi)), "origin": .string(origin)])
            _ = lws_return_http_status(wsi, 403, "origin not allowed")
            return -1
        }
        return 0
    }

    /// Whether `--max-clients` viewers and MJPEG readers are connected (then logs the refusal
    /// of `wsi`).
    func atClientLimit(_ wsi: OpaquePointer) -> Bool {
        guard viewerCount + mjpegReaderCount >= configuration.maxClients else { return false }
        Log.warning("client refused: --max-clients reached",
                    ["address": .string(peerAddress(wsi)), "max_clients": .int(configuration.maxClients)])
        return true
    }

    private func viewerConnected(_ wsi: OpaquePointer) {
        let authorized = accessToken.map { $0.accepts(urlArgument(wsi, "token")) } ?? true
        let connection = Connection(kind: .viewer, address: peerAddress(wsi), authorized: authorized)
        connections[wsi] = connection
        logConnected(connection)
        connection.enqueue(.hello(filters: session.catalog.descriptors, state: currentState,
                                  access: connection.access(configuration)))
        audienceChanged()
        broadcastState()
    }

    private func disconnected(_ wsi: OpaquePointer) {
        guard let connection = connections.removeValue(forKey: wsi) else { return }
        switch connection.kind {
        case .viewer:
            logDisconnected(connection)
            broadcastState()
        case .mjpeg:
            logDisconnected(connection)
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

    private func received(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) {
        guard let connection = connections[wsi], connection.closing == nil else { return }
        if lws_frame_is_binary(wsi) != 0 {
            if lws_is_final_fragment(wsi) != 0 {
                reply(connection, wsi, .error(ProtocolError(code: .invalidArgument,
                                                             message: "binary messages are not accepted from clients")))
            }
            return
        }
        if connection.incoming.count + length > ClientMessageParser.maximumSize {
            connection.incoming = []
            reply(connection, wsi, .error(ProtocolError(code: .tooLarge,
                message: "messages are limited to \(ClientMessageParser.maximumSize) bytes")))
            connection.closing = (Int32(LWSCloseStatus.messageTooBig), "message too large")
            connection.flushBeforeClosing = true  // the too_large error goes out first
            return
        }
        if let data { connection.incoming.append(contentsOf: UnsafeRawBufferPointer(start: data, count: length)) }
        guard lws_is_final_fragment(wsi) != 0 && lws_remaining_packet_payload(wsi) == 0 else { return }
        let message = connection.incoming
        connection.incoming.removeAll(keepingCapacity: true)

        let parsed = message.withUnsafeBytes { bytes in
            Result { () throws(ProtocolError) in try ClientMessageParser.parse(bytes) }
        }
        // Acknowledgements are the flow control itself (one per frame, whatever the frame rate),
        // so they do not spend the command budget; everything else does.
        let isAcknowledgement = if case .success(let parsedMessage) = parsed,
                                   case .frameAck = parsedMessage.command { true } else { false }
        guard isAcknowledgement || connection.commandBudget.spend() else {
            if connection.commandBudget.refusedInEpisode == 1 {
                reply(connection, wsi, .error(ProtocolError(code: .rateLimited,
                    message: "more than \(Int(CommandBudget.perSecond)) messages a second")))
            } else if connection.commandBudget.exhausted {
                connection.closing = (Int32(LWSCloseStatus.policyViolation), "command flood")
                connection.flushBeforeClosing = true  // the answers so far and the rate_limited error go out first
                lws_callback_on_writable(wsi)
            }
            return
        }
        do throws(ProtocolError) {
            try perform(try parsed.get(), for: connection, wsi)
        } catch {
            reply(connection, wsi, .error(error))
        }
    }

    /// Runs one command for `connection`; throws (with the command's id) when it is refused.
    private func perform(_ message: ClientMessage, for connection: Connection, _ wsi: OpaquePointer) throws(ProtocolError) {
        switch message.command {
        case .frameAck(let sequence):
            connection.acknowledge(sequence, roundTrip: roundTrip(wsi))
            if hasWork(connection, latest: broadcaster.latestSequence ?? 0) { lws_callback_on_writable(wsi) }
            return  // acknowledgements are not acknowledged
        case .flow(let window):
            connection.setWindow(window)
            if hasWork(connection, latest: broadcaster.latestSequence ?? 0) { lws_callback_on_writable(wsi) }
        case .auth(let token):
            guard let accessToken, accessToken.accepts(token) else {
                throw ProtocolError(code: .unauthorized, message: "wrong token", id: message.id)
            }
            connection.authorized = true
            connection.stateDue = true  // the state in its hello may be old: nothing was sent since
            audienceChanged()  // a viewer who could not watch before may now
        default:
            guard connection.authorized else {
                throw ProtocolError(code: .unauthorized, message: "this server needs a token to take commands",
                                    id: message.id)
            }
            try session.apply(message.command, id: message.id)
            if Log.enabled(.debug) {
                Log.debug("command applied", ["address": .string(connection.address), "command": .string("\(message.command)")])
            }
            broadcastState()
        }
        if let id = message.id { reply(connection, wsi, .ack(id)) }
    }

    private func reply(_ connection: Connection, _ wsi: OpaquePointer, _ message: ServerMessage) {
        connection.enqueue(message)
        lws_callback_on_writable(wsi)
    }

    /// One message per writable callback: close (after the pending text when it explains the
    /// close), pending text, state, then the newest frame.
    private func writeToViewer(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections[wsi] else { return 0 }
        if let (status, reason) = connection.closing,
           !(connection.flushBeforeClosing && !connection.pendingText.isEmpty) {
            var reasonBytes = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(status)), &reasonBytes, reasonBytes.count)
            return -1
        }
        if !connection.pendingText.isEmpty {
            var text = connection.pendingText.removeFirst()
            if write(wsi, &text, LWS_WRITE_TEXT) < 0 { return -1 }
        } else if connection.stateDue {
            connection.stateDue = false
            var text = withHeadroom(ServerMessage.state(currentState).encoded())
            if write(wsi, &text, LWS_WRITE_TEXT) < 0 { return -1 }
        } else if connection.windowOpen(frameInterval: frameInterval), connection.authorizedToWatch(configuration),
                  let frame = broadcaster.borrowLatest(toViewer: true) {
            defer { broadcaster.giveBack(frame) }
            if frame.header.sequence > connection.lastSent {
                frame.stampSendTime(Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
                let written = lws_write(wsi, frame.payload.assumingMemoryBound(to: UInt8.self), frame.payloadCount,
                                        LWS_WRITE_BINARY)
                if written < frame.payloadCount { return -1 }
                countSent(frame.header.sequence, bytes: frame.payloadCount, to: connection)
                connection.sent(frame.header.sequence)
            }
        }
        if hasWork(connection, latest: broadcaster.latestSequence ?? 0) { lws_callback_on_writable(wsi) }
        return 0
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

    /// Counts frame `sequence`, just written to `connection` in `bytes` (call it before `lastSent`
    /// moves on), and the frames the client skipped since its previous one.
    func countSent(_ sequence: UInt64, bytes: Int, to connection: Connection) {
        counters.framesSent.increment()
        counters.bytesSent.increment(by: UInt64(bytes))
        if connection.lastSent > 0 && sequence > connection.lastSent + 1 {
            counters.droppedSlowClient.increment(by: sequence - connection.lastSent - 1)
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

extension Connection {
    /// With `--token` and without `--public-view`, frames go only to clients that gave it.
    func authorizedToWatch(_ configuration: ServerConfiguration) -> Bool {
        authorized || configuration.token == nil || configuration.publicView
    }

    /// What `hello.access` tells the client.
    func access(_ configuration: ServerConfiguration) -> ViewerAccess {
        authorized ? .control : authorizedToWatch(configuration) ? .watch : .none
    }
}
