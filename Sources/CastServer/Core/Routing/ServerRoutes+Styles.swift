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
            shelfThumbnail("/api/styles/", noun: "style", absent: shelf == nil ? absent : nil) { shelf?.thumbnail($0) },
            shelfPut("/api/styles/", into: shelf, absent: absent),
            .delete(.prefix("/api/styles/"), access: .control) { _, rest in context.deleteStyle(Route.decoded(rest)) },
        ]
    }
}
