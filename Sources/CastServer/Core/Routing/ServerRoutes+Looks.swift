import CastProtocol

/// The saved looks of `--looks`, listed for viewers (saved and deleted by `saveLook` and
/// `deleteLook`, ``ServerCore/sessionPart(of:on:)``).
extension ServerRoutes {
    static func lookRoutes(_ context: RouteContext) -> [Route] {
        [
            .get(.exact("/api/looks"), access: .watch) { _, _ in
                guard let looks = context.looks else { return .status(404, "this server keeps no looks (--looks)") }
                return .json(encoding: LookListing(looks: looks.all))
            },
            .get(.prefix("/api/looks/"), access: .watch) { request, rest in
                guard let looks = context.looks else { return .status(404, "this server keeps no looks (--looks)") }
                return context.on(request) { thumbnail(rest, of: $0, in: looks) }
            },
        ]
    }

    /// `GET /api/looks/NAME/thumbnail.jpg?channel=`: the look applied to the channel's picture,
    /// small; 202 (`Retry-After: 1`, no picture) while its first one is being made.
    private static func thumbnail(_ rest: String, of channel: Channel, in looks: LookFolder) -> HTTPAnswer {
        let suffix = "/thumbnail.jpg"
        guard rest.hasSuffix(suffix) else { return .status(404, "not found: /api/looks/NAME/thumbnail.jpg is what there is") }
        let name = Route.decoded(String(rest.dropLast(suffix.count)))
        guard let look = looks.look(named: name) else { return .status(404, "no look named '\(name.prefix(40))'") }
        guard let thumbnails = channel.thumbnails else { return .status(404, "channel \(channel.name) makes no thumbnails") }
        guard let jpeg = thumbnails.thumbnail(of: look, now: .now) else {
            return .status(202, "the thumbnail is being made", headers: [("retry-after:", "1")])
        }
        return .body(status: 200, type: "image/jpeg", bytes: jpeg)
    }
}

/// `GET /api/looks`: `{"looks": [{"name", "created", "chain"}, …]}` in name order, each look as
/// its file has it (the chain what `setFilter.chain` takes).
struct LookListing: Encodable {
    let looks: [Look]
}
