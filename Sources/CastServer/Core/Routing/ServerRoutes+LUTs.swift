import FilterKit

/// The colour LUTs of `--luts`: listed for viewers, added (``ServerCore/shelfUploadAdmitted(_:into:name:request:)``)
/// and deleted (``ServerCore/deleteLUT(_:)``) by controllers.
extension ServerRoutes {
    static func lutRoutes(_ context: RouteContext) -> [Route] {
        let absent = "this server has no LUT folder (--luts)"
        return [
            .get(.exact("/api/luts"), access: .watch) { _, _ in
                guard let luts = context.luts else { return .status(404, absent) }
                struct Entry: Encodable { let name: String, size: Int, title: String }
                struct Listing: Encodable { let luts: [Entry] }
                return .json(encoding: Listing(luts: luts.library.listing.map { Entry(name: $0.name, size: $0.size, title: $0.title) }))
            },
            shelfPut("/api/luts/", into: context.luts, absent: absent),
            .delete(.prefix("/api/luts/"), access: .control) { _, rest in context.deleteLUT(Route.decoded(rest)) },
        ]
    }

    /// `PUT PREFIXNAME` (control): an item for `shelf`; without one, 404 saying `absent`.
    static func shelfPut(_ prefix: String, into shelf: (any UploadShelf)?, absent: String) -> Route {
        .put(.prefix(prefix), access: .control) { _, rest in
            shelf.map { .shelfUpload($0, name: Route.decoded(rest)) } ?? .status(404, absent)
        }
    }
}
