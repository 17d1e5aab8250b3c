import CastProtocol
import CWebSockets
import Foundation
import Logging

/// The lws side of `/ws` viewers: each event becomes a call on the connection's `ViewerSession`,
/// and what it asks for becomes `lws_write`, `lws_close_reason` or `lws_callback_on_writable`.
extension WebSocketServer {
    /// Before the upgrade: refuse foreign origins and connections over the limit. Nonzero refuses.
    /// (A client without the token may connect: it can send `auth` first.)
    func admitViewer(_ wsi: OpaquePointer) -> Int32 {
        if atClientLimit(wsi) {
            _ = lws_return_http_status(wsi, 503, "too many clients")
            return -1
        }
        if let origin = foreignOrigin(wsi) {
            Log.warning("client refused: origin not allowed", ["address": .string(peerAddress(wsi)), "origin": .string(origin)])
            _ = lws_return_http_status(wsi, 403, "origin not allowed")
            return -1
        }
        return 0
    }

    /// The request's `Origin` when it is another site's (not the server's own, no
    /// `--allow-origin`): such a page must not drive the server from a visitor's browser. Nil
    /// for allowed origins and for clients that send none (command-line tools).
    func foreignOrigin(_ wsi: OpaquePointer) -> String? {
        let origin = header(wsi, WSI_TOKEN_ORIGIN)
        let allowed = origin.isEmpty
            || OriginPolicy.allows(origin: origin, host: header(wsi, WSI_TOKEN_HOST), allowed: configuration.allowedOrigins)
        return allowed ? nil : origin
    }

    func viewerConnected(_ wsi: OpaquePointer) {
        let features = ServerFeatures(mediaFolder: session.library?.media != nil,
                                      uploads: uploadDesk.map { UploadOffer(maxBytes: $0.policy.maxBytes) },
                                      audio: outputs.audio.map { _ in SourceAudio.wire })
        let viewer = ViewerSession(token: urlArgument(wsi, "token"), accessToken: accessToken,
                                   publicView: configuration.publicView, offer: outputs.offer, features: features)
        let connection = Connection(kind: .viewer(viewer), address: peerAddress(wsi))
        connections[wsi] = connection
        logConnected(connection)
        viewer.greet(filters: session.catalog.descriptors, state: currentState)
        audienceChanged()
        broadcastState()
    }

    /// `LWS_CALLBACK_RECEIVE`: one fragment of a message.
    func received(_ wsi: OpaquePointer, _ data: UnsafeMutableRawPointer?, _ length: Int) {
        guard let connection = connections[wsi], let viewer = connection.viewer else { return }
        let isBinary = lws_frame_is_binary(wsi) != 0
        let isLast = lws_is_final_fragment(wsi) != 0 && (isBinary || lws_remaining_packet_payload(wsi) == 0)
        let fragment = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : length)
        let outcome = viewer.receive(fragment, isBinary: isBinary, isLast: isLast, roundTrip: { roundTrip(wsi) },
                                     apply: { command throws(ProtocolError) in
                                         if case .share(let request) = command { try share(request, wsi) } else { try apply(command) }
                                     },
                                     ingest: { picture throws(ProtocolError) in try ingest(picture, wsi) })
        switch outcome {
        case .none:
            break
        case .applied(let command):
            if Log.enabled(.debug) {
                Log.debug("command applied", ["address": .string(connection.address), "command": .string("\(command)")])
            }
            broadcastState()
        case .authorized:
            audienceChanged()  // a viewer who could not watch before may now
        case .watching:
            Log.debug("viewer watches", ["address": .string(connection.address),
                                         "rendition": .string(outputs.offer[viewer.watching.rendition].id)])
            audienceChanged()
        }
        requestWriteIfDue(wsi, viewer)
    }

    /// `LWS_CALLBACK_SERVER_WRITEABLE`: one message per callback, the one the session says.
    func writeToViewer(_ wsi: OpaquePointer) -> Int32 {
        guard let viewer = connections[wsi]?.viewer else { return 0 }
        let supply = outputs.supply
        switch viewer.nextWrite(supply: supply, frameInterval: frameInterval) {
        case .close(let status, let reason):
            var reasonBytes = Array(reason.utf8)
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(status)), &reasonBytes, reasonBytes.count)
            return -1
        case .text(var text):
            if write(wsi, &text, LWS_WRITE_TEXT) < 0 { return -1 }
        case .state:
            var text = withHeadroom(ServerMessage.state(currentState).encoded())
            if write(wsi, &text, LWS_WRITE_TEXT) < 0 { return -1 }
        case .frame(let rendition):
            if !writeLatestFrame(of: rendition, wsi, to: viewer) { return -1 }
        case .unit(let rendition, let sequence):
            if !writeUnit(sequence, of: rendition, wsi, to: viewer) { return -1 }
        case .audio(let sequence):
            if !writeAudio(sequence, wsi, to: viewer) { return -1 }
        case .padding(let bytes):
            if lws_write(wsi, Self.padding.payload.assumingMemoryBound(to: UInt8.self), FrameHeader.size + bytes, LWS_WRITE_BINARY) < 0 {
                return -1
            }
            counters.bytesSent.increment(by: UInt64(FrameHeader.size + bytes))
            viewer.paddingSent(bytes)
        case .nothing:
            break
        }
        requestWriteIfDue(wsi, viewer, supply)
        return 0
    }

    /// The padding message of a padded probe (`FCP1`, 32 bytes laid out as a frame's header, then
    /// zeros), up to 16 KB of padding; clients skip it. Written by the service thread only, never
    /// changed.
    static let padding: EncodedFrame = {
        let message = EncodedFrame(maximumBodySize: 16 * 1024)
        message.payload.initializeMemory(as: UInt8.self, repeating: 0, count: FrameHeader.size + 16 * 1024)
        FrameHeader(flags: [], sequence: 0, presentationTime: 0, sendTime: 0)
            .write(to: message.payload, magic: FrameHeader.paddingMagic, length: FrameHeader.size)
        return message
    }()

    /// Writes the latest frame of JPEG rendition `rendition` if it is newer than the viewer's
    /// last; false when the write failed.
    private func writeLatestFrame(of rendition: Int, _ wsi: OpaquePointer, to viewer: ViewerSession) -> Bool {
        guard let broadcaster = outputs.jpeg[rendition]?.broadcaster, let frame = broadcaster.borrowLatest(toViewer: true) else {
            return true
        }
        defer { broadcaster.giveBack(frame) }
        guard frame.header.sequence > viewer.flow.lastSent else { return true }
        return send(frame, wsi, to: viewer)
    }

    /// Writes access unit `sequence` of rendition `rendition` (gone already: nothing is written);
    /// false when the write failed.
    private func writeUnit(_ sequence: UInt64, of rendition: Int, _ wsi: OpaquePointer, to viewer: ViewerSession) -> Bool {
        guard let log = outputs.h264[rendition]?.log, let unit = log.borrow(sequence) else { return true }
        defer { log.giveBack(unit) }
        return send(unit, wsi, to: viewer)
    }

    /// Stamps the send time into `frame`, writes it and counts it; false when the write failed.
    private func send(_ frame: EncodedFrame, _ wsi: OpaquePointer, to viewer: ViewerSession) -> Bool {
        frame.stampSendTime(Int64((Date().timeIntervalSince1970 * 1e6).rounded()))
        let written = lws_write(wsi, frame.payload.assumingMemoryBound(to: UInt8.self), frame.payloadCount,
                                LWS_WRITE_BINARY)
        if written < frame.payloadCount { return false }
        countSent(frame.header.sequence, bytes: frame.payloadCount, after: viewer.flow.lastSent)
        viewer.frameSent(frame.header.sequence)
        return true
    }

    /// Asks for a writable callback while the viewer has something to write (`supply`: what the
    /// outputs hold, when the caller read it already), and for a keyframe when it needs one.
    func requestWriteIfDue(_ wsi: OpaquePointer, _ viewer: ViewerSession, _ supply: FrameSupply? = nil) {
        let supply = supply ?? outputs.supply
        if let rendition = viewer.keyframeNeeded(supply: supply, frameInterval: frameInterval) {
            outputs.h264[rendition]?.requestKeyframe()
        }
        if viewer.hasWork(supply: supply, frameInterval: frameInterval) {
            lws_callback_on_writable(wsi)
        }
    }
}
