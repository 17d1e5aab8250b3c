import CastProtocol
import Foundation

/// The library's routes: a channel's recordings (`?channel=`), and the media folder and the
/// uploads, which every channel shares.
extension ServerRoutes {
    /// Most bytes of a query string: a longer `?folder=` must be refused, not taken as absent
    /// (lws reads at most this much of a value).
    static let maximumQuery = 500

    static func libraryRoutes(_ context: RouteContext) -> [Route] {
        let library = context.channels.defaultChannel.session.library
        return [
            .get(.exact("/api/recordings"), access: .watch, scope: .channel) { request, _ in
                struct Listing: Encodable { let recordings: [RecordingEntry] }
                return context.on(request) { .json(encoding: Listing(recordings: $0.session.library?.listRecordings() ?? [])) }
            },
            .get(.exact("/api/media"), access: .watch) { request, _ in mediaListing(request, library) },
            .get(.exact("/api/uploads"), access: .watch) { _, _ in
                guard let library, library.uploads != nil else { return .status(404, "this server takes no uploads (--uploads)") }
                struct Listing: Encodable { let uploads: [RecordingEntry] }
                return .json(encoding: Listing(uploads: library.listUploads()))
            },
            .get(.prefix("/recordings/"), access: .watch, scope: .channel) { request, rest in
                context.on(request) { recording(Route.decoded(rest), $0.session.library) }
            },
            .get(.prefix("/api/recordings/"), access: .watch, scope: .channel) { request, rest in
                context.on(request) { recording(Route.decoded(rest), $0.session.library) }
            },
            context.takesUploads
                ? .put(.prefix("/api/uploads/"), access: .control, scope: .channel) { request, rest in
                    let name = Route.decoded(rest)
                    return context.on(request) { _ in .pending(PendingRequest { core, id, request in core.uploadAdmitted(id, name: name, request: request) }) }
                }
                : Route(methods: [.put, .post], path: .prefix("/api/uploads/"), access: .anyone, refusesForeignOrigins: false) { _, _ in
                    .status(404, "this server takes no uploads (--uploads)")
                },
        ]
    }

    /// A recording as a download: resolved like `open` and `delete` (403 outside the folder, 404
    /// when missing).
    private static func recording(_ name: String, _ library: MediaLibrary?) -> HTTPAnswer {
        guard let library else { return .status(404, "not found") }
        do {
            let (path, _) = try library.resolve("recordings/" + name)
            return .file(path: path, mimeType: StaticFiles.mimeType(for: path))
        } catch {
            return .status(error.code == .forbidden ? 403 : 404, error.message)
        }
    }

    /// `GET /api/media?folder=REL`: one folder of the media folder; 404 without a media folder or
    /// for a folder that is not there, 403 for a name outside it, 414 for a query too long.
    private static func mediaListing(_ request: HTTPRequest, _ library: MediaLibrary?) -> HTTPAnswer {
        guard request.queryLength <= maximumQuery else {
            return .status(414, "the query is too long (at most \(maximumQuery) bytes)")
        }
        do throws(ProtocolError) {
            guard let library else {
                throw ProtocolError(code: .notFound, message: "this server has no media folder (--media-dir)")
            }
            return .json(encoding: try library.listMedia(folder: request.argument("folder") ?? ""))
        } catch {
            return .status(error.code == .forbidden ? 403 : 404, error.message)
        }
    }
}
