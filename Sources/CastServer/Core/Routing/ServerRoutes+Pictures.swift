/// The uploaded pictures offered as a filter's choices — the style pictures of `--styles`, the
/// backgrounds of `DATA/backgrounds` —: listed for viewers, each picture's thumbnail (`NAME.jpg`)
/// and entry (`NAME`) served to anyone, added (``ServerCore/shelfUploadAdmitted(_:into:name:request:)``)
/// and removed by controllers.
extension ServerRoutes {
    static func styleRoutes(_ context: RouteContext) -> [Route] {
        pictureRoutes("/api/styles", shelf: context.styles, noun: "style",
                      absent: "this server has no style folder (--styles)", delete: context.deleteStyle)
    }

    static func backgroundRoutes(_ context: RouteContext) -> [Route] {
        pictureRoutes("/api/backgrounds", shelf: context.backgrounds, noun: "background",
                      absent: "this server has no person matte (backgroundReplace), so no backgrounds", delete: context.deleteBackground)
    }

    /// `GET path` (the listing), `GET path/NAME[.jpg]`, `PUT` and `DELETE path/NAME` of `shelf`;
    /// each 404 saying `absent` without one.
    private static func pictureRoutes(_ path: String, shelf: (any PictureShelf)?, noun: String, absent: String,
                                      delete: @escaping (String) -> HTTPAnswer) -> [Route] {
        [
            .get(.exact(path), access: .watch) { _, _ in shelf.map { .json($0.listing) } ?? .status(404, absent) },
            shelfThumbnail(path + "/", noun: noun, absent: shelf == nil ? absent : nil, entry: { shelf?.entry($0) }) {
                shelf?.thumbnail($0)
            },
            shelfPut(path + "/", into: shelf, absent: absent),
            .delete(.prefix(path + "/"), access: .control) { _, rest in delete(Route.decoded(rest)) },
        ]
    }
}
