import CastProtocol
import FilterKit
import Foundation
import Telemetry

/// What the server's routes answer from. Service thread only.
struct RouteContext {
    /// The channels in force now (they change at run time).
    let registry: () -> ChannelRegistry
    let metrics: Metrics
    let files: StaticFiles
    /// `--uploads` is on.
    let takesUploads: Bool
    /// `--luts`: the LUT folder, or nil.
    let luts: LUTFolder?
    /// `--looks`: the saved looks, or nil.
    let looks: LookFolder?
    /// `--styles`: the style pictures, or nil.
    let styles: (any PictureShelf)?
    /// `DATA/backgrounds`: the uploaded backgrounds, or nil (no person matte).
    let backgrounds: (any PictureShelf)?
    /// The seek bar's thumbnails of the files the channels play.
    let thumbnails: SeekThumbnails
    /// `DELETE /api/luts/NAME`, carried out at once (``ServerCore/deleteLUT(_:)``).
    let deleteLUT: (String) -> HTTPAnswer
    /// `DELETE /api/styles/NAME`, carried out at once (``ServerCore/deleteStyle(_:)``).
    let deleteStyle: (String) -> HTTPAnswer
    /// `DELETE /api/backgrounds/NAME`, carried out at once (``ServerCore/deleteBackground(_:)``).
    let deleteBackground: (String) -> HTTPAnswer
    /// A channel's state as `/api/state` and its viewers see it.
    let state: (Channel) -> SessionState
    /// A channel's last changes and who made them (``ServerCore/activity(of:)``).
    let activity: (Channel) -> [ActivityEntry]
    /// `GET /api/comments?channel=&format=` (``ServerCore/commentsAnswer(_:format:)``).
    let comments: (Channel, String?) -> HTTPAnswer
    /// `GET /snapshot.jpg?comment=ID` (``ServerCore/commentPicture(_:id:)``).
    let commentPicture: (Channel, String) -> HTTPAnswer
    /// Whether `--max-clients` viewers and MJPEG readers are connected (then it logs the refusal).
    let clientLimit: (HTTPRequest, Channel) -> HTTPAnswer?

    var channels: ChannelRegistry { registry() }
}

/// The route table of `filtercast serve`: every HTTP path and the WebSocket endpoint, each with
/// the access it needs. The first route that takes a request answers it; the page's files come last.
enum ServerRoutes {
    static func table(_ context: RouteContext) -> [Route] {
        sessionRoutes(context) + channelsRoutes(context) + libraryRoutes(context) + lutRoutes(context) + lookRoutes(context) + styleRoutes(context)
            + backgroundRoutes(context) + thumbnailRoutes(context) + [
            .get(.exact("/healthz"), access: .anyone) { _, _ in
                .body(status: 200, type: "text/plain; charset=utf-8", bytes: Array("ok\n".utf8))
            },
            .get(.exact("/metrics"), access: .watch) { _, _ in
                .body(status: 200, type: Metrics.contentType, bytes: Array(context.metrics.exposition().utf8))
            },
            .get(.exact("/ws"), access: .anyone) { _, _ in
                .status(426, "this is the WebSocket endpoint (subprotocol \(ProtocolVersion.subprotocol))")
            },
            .get(.prefix("/"), access: .anyone) { request, _ in
                guard let file = context.files.resolve(request.path) else { return .status(404, "not found") }
                return .file(path: file.path, mimeType: file.mimeType, framable: context.files.framable(file.path))
            },
        ]
    }

    /// A channel's state and pictures (`?channel=`), and the filters every channel offers.
    private static func sessionRoutes(_ context: RouteContext) -> [Route] {
        [
            .get(.exact("/api/state"), access: .watch, scope: .channel) { request, _ in
                context.on(request) { .json(encoding: context.state($0)) }
            },
            .get(.exact("/api/activity"), access: .watch, scope: .channel) { request, _ in
                struct Activity: Encodable { let channel: String, activity: [ActivityEntry] }
                return context.on(request) { .json(encoding: Activity(channel: $0.name.description, activity: context.activity($0))) }
            },
            .get(.exact("/api/comments"), access: .watch, scope: .channel) { request, _ in
                context.on(request) { context.comments($0, request.argument("format")) }
            },
            .get(.exact("/api/filters"), access: .anyone) { _, _ in
                .json(encoding: CatalogListing(context.channels.defaultChannel.session.catalog))
            },
            .get(.exact("/snapshot.jpg"), access: .watch, scope: .channel) { request, _ in
                context.on(request) { channel in
                    if let comment = request.argument("comment") { return context.commentPicture(channel, comment) }
                    return jpegRendition(request, channel) { .snapshot(of: channel, rendition: $0) }
                }
            },
            .get(.exact("/stream.mjpg"), access: .watch, scope: .channel) { request, _ in context.on(request) { mjpeg(request, $0, context) } },
        ]
    }

    /// `/stream.mjpg` of `channel`, of the JPEG rendition `?width=` asks for.
    private static func mjpeg(_ request: HTTPRequest, _ channel: Channel, _ context: RouteContext) -> HTTPAnswer {
        if let refusal = context.clientLimit(request, channel) { return refusal }
        return jpegRendition(request, channel) { .mjpeg(of: channel, rendition: $0) }
    }

    /// `answer` of the JPEG rendition of `channel` nearest to `?width=` pixels (none: full size),
    /// or 400 when the width is not 1 to 16384.
    private static func jpegRendition(_ request: HTTPRequest, _ channel: Channel, _ answer: (Int) -> HTTPAnswer) -> HTTPAnswer {
        guard let width = request.argument("width") else { return answer(0) }
        guard let pixels = Int(width), (1...16384).contains(pixels) else {
            return .status(400, "width must be a whole number of pixels, 1 to 16384")
        }
        return answer(channel.outputs.jpegRung(nearestWidth: pixels))
    }
}

extension RouteContext {
    /// `answer` for the channel `request`'s `?channel=` names (none: the default one), or 404
    /// naming the channels there are.
    func on(_ request: HTTPRequest, _ answer: (Channel) -> HTTPAnswer) -> HTTPAnswer {
        let name = request.argument("channel")
        guard let channel = channels.channel(named: name) else { return channels.unknown(name ?? "") }
        return answer(channel)
    }
}

extension HTTPAnswer {
    /// 200 with `value` as JSON (sorted keys, slashes as they are).
    static func json(encoding value: some Encodable) -> HTTPAnswer { .json(JSONBody.encoded(value)) }
}

/// The JSON of HTTP bodies and of the answers the transport writes itself.
enum JSONBody {
    static func encoded(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { Array($0) } ?? []
    }
}
