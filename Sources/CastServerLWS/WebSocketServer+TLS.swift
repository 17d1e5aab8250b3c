import CastServer
import CWebSockets
import Logging

/// The TLS port's one rule lws does not keep itself: plain text arrives there (lws lets it in to
/// redirect HTTP requests to https), but a `ws://` upgrade is not an HTTP request lws redirects.
extension WebSocketServer {
    /// Whether `wsi` is a plain-text connection on a TLS port (service thread).
    func isPlainOnTLSPort(_ wsi: OpaquePointer) -> Bool {
        configuration.tls != nil && lws_is_ssl(wsi) == 0
    }

    /// Refuses a `ws://` upgrade on the TLS port with 403: a WebSocket cannot follow a redirect,
    /// and viewers (their token, their commands) must not travel in the clear there.
    func refusePlainUpgrade(_ wsi: OpaquePointer) -> Int32 {
        Log.warning("client refused: ws:// on the TLS port (use wss://)", ["address": .string(peerAddress(wsi))])
        _ = lws_return_http_status(wsi, 403, "this port serves TLS only: use wss://")
        return -1
    }
}
