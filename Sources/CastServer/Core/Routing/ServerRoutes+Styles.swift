/// The style pictures of `--styles`: listed and their thumbnails served to viewers, added
/// (``ServerCore/shelfUploadAdmitted(_:into:name:request:)``) and removed by controllers.
extension ServerRoutes {
    static func styleRoutes(_ context: RouteContext) -> [Route] {
        let absent = "this server has no style folder (--styles)"
        let shelf = context.styles
        return [
            .get(.exact("/api/styles"), access: .watch) { _, _ in
                shelf.map { .json($0.listing) } ?? .status(404, absent)
            },
            // Part of the catalog, which is public (`GET /api/filters` names it): a page's <img> carries no token.
            .get(.prefix("/api/styles/"), access: .anyone) { _, rest in
                let name = Route.decoded(rest)
                guard name.hasSuffix(".jpg"), let thumbnail = shelf?.thumbnail(String(name.dropLast(4))) else {
                    return .status(404, shelf == nil ? absent : "no style thumbnail '\(name.prefix(40))'")
                }
                return .body(status: 200, type: "image/jpeg", bytes: thumbnail)
            },
            shelfPut("/api/styles/", into: shelf, absent: absent),
            .delete(.prefix("/api/styles/"), access: .control) { _, rest in context.deleteStyle(Route.decoded(rest)) },
        ]
    }
}
