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
        ]
    }
}

/// `GET /api/looks`: `{"looks": [{"name", "created", "chain"}, …]}` in name order, each look as
/// its file has it (the chain what `setFilter.chain` takes).
struct LookListing: Encodable {
    let looks: [Look]
}
