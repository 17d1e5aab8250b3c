import CastServer
import Foundation

/// What the adapter knows about one HTTP connection with something under way (viewers are the
/// core's). Touched only on the network (service) thread.
final class Connection {
    enum Kind {
        /// A `GET /stream.mjpg` reader, of a channel's JPEG rendition (its index in the offer).
        case mjpeg(Channel, rendition: Int)
        /// A one-off HTTP response waiting to be written.
        case response
        /// A `GET /snapshot.jpg` of a channel's JPEG rendition waiting for a fresh frame (none is
        /// encoded while nobody watches).
        case snapshot(Channel, rendition: Int, headOnly: Bool)
        /// A file being sent (the page's files, a recording).
        case file(FileDownload)

        /// The channel an MJPEG reader or a waiting snapshot watches.
        var channel: Channel? {
            switch self {
            case .mjpeg(let channel, _), .snapshot(let channel, _, _): channel
            case .response, .file: nil
            }
        }
    }

    let kind: Kind
    let address: String
    let connectedAt = ContinuousClock.now

    /// Set when the server stops: the connection is closed at its next writable callback.
    var closing = false

    // MJPEG readers and waiting snapshots
    /// Sequence of the last frame sent (0: none).
    var lastSent: UInt64 = 0
    var readerFramesSent = 0

    // HTTP responses and MJPEG
    /// The body to write (with headroom in front), for `.response`.
    var body: [UInt8]?
    var headOnly = false
    /// Reused buffer for MJPEG parts.
    var partBuffer: [UInt8] = []

    init(kind: Kind, address: String) {
        self.kind = kind
        self.address = address
    }
}
