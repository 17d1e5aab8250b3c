import FilterKit

/// The colour LUTs of `--luts`: listed for viewers, added (``ServerCore/lutUploadAdmitted(_:name:request:)``)
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
            context.luts == nil
                ? Route(methods: [.put, .post, .delete], path: .prefix("/api/luts/"), access: .anyone, refusesForeignOrigins: false) { _, _ in
                    .status(404, absent)
                }
                : .put(.prefix("/api/luts/"), access: .control) { _, rest in .lutUpload(name: Route.decoded(rest)) },
        ] + (context.luts == nil ? [] : [
            .delete(.prefix("/api/luts/"), access: .control) { _, rest in context.deleteLUT(Route.decoded(rest)) },
        ])
    }
}
