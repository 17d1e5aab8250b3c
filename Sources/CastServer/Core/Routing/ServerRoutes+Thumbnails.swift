import Foundation
import MediaKit

/// The seek bar's thumbnails of the file a channel plays (``SeekThumbnails``).
extension ServerRoutes {
    static func thumbnailRoutes(_ context: RouteContext) -> [Route] {
        [
            .get(.exact("/api/thumbnails"), access: .watch, scope: .channel) { request, _ in
                context.on(request) { thumbnails(of: $0, context.thumbnails) }
            },
            .get(.prefix("/api/thumbnails/"), access: .watch, scope: .channel) { request, rest in
                context.on(request) { channel in
                    guard let path = channel.session.playingFile(), let sprite = context.thumbnails.sprite(named: rest, of: path) else {
                        return .status(404, "not found: no such sprite of what channel \(channel.name) plays (ask /api/thumbnails)")
                    }
                    return .file(path: sprite, mimeType: "image/jpeg")
                }
            },
        ]
    }

    /// `GET /api/thumbnails?channel=`: the thumbnails of the file `channel` plays
    /// (``ThumbnailListing``); 202 (`Retry-After: 1`) while they are being made, 503 while too
    /// many files wait (`Retry-After: 5`), 404 for a live source.
    private static func thumbnails(of channel: Channel, _ thumbnails: SeekThumbnails) -> HTTPAnswer {
        guard let path = channel.session.playingFile() else {
            return .status(404, "channel \(channel.name) plays a live source: it has no thumbnails")
        }
        switch thumbnails.answer(for: path) {
        case .ready(let key, let index):
            let name = channel.name.description.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? ""
            return .json(encoding: ThumbnailListing(sprite: "/api/thumbnails/\(key)-\(index.fingerprint).jpg?channel=\(name)",
                                                    layout: index.layout))
        case .making:
            return .status(202, "the thumbnails are being made", headers: [("retry-after:", "1")])
        case .busy:
            return .status(503, "thumbnails of \(SeekThumbnails.queueLimit) other files are being made: ask again later",
                           headers: [("retry-after:", "5")])
        case .notAFile:
            return .status(404, "channel \(channel.name) plays a stream that is no file of this server: it has no thumbnails")
        case .failed(let reason):
            return .status(500, "the thumbnails cannot be made: \(reason)")
        }
    }
}

/// `GET /api/thumbnails`: `{"sprite": URL, "width": W, "height": H, "columns": C, "times": [s…]}`
/// — thumbnail `i` (shown from `times[i]`) is the `W × H` cell of the sprite at column
/// `i % C`, row `i / C`.
struct ThumbnailListing: Encodable {
    let sprite: String
    let width: Int
    let height: Int
    let columns: Int
    let times: [Double]

    init(sprite: String, layout: ThumbnailLayout) {
        self.sprite = sprite
        (width, height, columns, times) = (layout.width, layout.height, layout.columns, layout.times)
    }
}
