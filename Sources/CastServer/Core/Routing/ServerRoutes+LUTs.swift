import FilterKit

/// The colour LUTs of `--luts`: listed for viewers, their thumbnails served to anyone, added
/// (``ServerCore/shelfUploadAdmitted(_:into:name:request:)``) and deleted (``ServerCore/deleteLUT(_:)``)
/// by controllers.
extension ServerRoutes {
    static func lutRoutes(_ context: RouteContext) -> [Route] {
        let absent = "this server has no LUT folder (--luts)"
        let luts = context.luts
        return [
            .get(.exact("/api/luts"), access: .watch) { _, _ in luts.map { .json(encoding: $0.listing) } ?? .status(404, absent) },
            shelfThumbnail("/api/luts/", noun: "LUT", absent: luts == nil ? absent : nil) { luts?.library.thumbnail($0) },
            shelfPut("/api/luts/", into: luts, absent: absent),
            .delete(.prefix("/api/luts/"), access: .control) { _, rest in context.deleteLUT(Route.decoded(rest)) },
        ]
    }

    /// `PUT PREFIXNAME` (control): an item for `shelf`; without one, 404 saying `absent`.
    static func shelfPut(_ prefix: String, into shelf: (any UploadShelf)?, absent: String) -> Route {
        .put(.prefix(prefix), access: .control) { _, rest in
            guard let shelf else { return .status(404, absent) }
            let name = Route.decoded(rest)
            return .pending(PendingRequest { core, id, request in core.shelfUploadAdmitted(id, into: shelf, name: name, request: request) })
        }
    }

    /// `GET PREFIXNAME.jpg`: the JPEG thumbnail `thumbnail` gives of the item NAME (404 for none;
    /// with `absent`, the shelf is not there: 404 saying so); with `entry`, `GET PREFIXNAME` is the
    /// JSON it gives of NAME. Open to anyone: part of the catalog, which is public (`GET
    /// /api/filters` names it), and a page's `<img>` carries no token.
    static func shelfThumbnail(_ prefix: String, noun: String, absent: String?, entry: ((String) -> [UInt8]?)? = nil,
                               _ thumbnail: @escaping (String) -> [UInt8]?) -> Route {
        .get(.prefix(prefix), access: .anyone) { _, rest in
            let name = Route.decoded(rest)
            if let absent { return .status(404, absent) }
            if let entry, !name.hasSuffix(".jpg") {
                return entry(name).map { .json($0) } ?? .status(404, "no \(noun) named '\(name.prefix(40))'")
            }
            guard name.hasSuffix(".jpg"), let jpeg = thumbnail(String(name.dropLast(4))) else {
                return .status(404, "no \(noun) thumbnail '\(name.prefix(40))'")
            }
            return .body(status: 200, type: "image/jpeg", bytes: jpeg)
        }
    }
}
