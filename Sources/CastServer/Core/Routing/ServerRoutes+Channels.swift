import CastProtocol

/// `GET /api/channels`: every channel, the default one first, as a page lists them; `PUT` and
/// `DELETE /api/channels/NAME` (admin) add and remove one (``ServerCore/channelPutAdmitted(_:name:request:)``, ``ServerCore/channelDeleted(_:name:)``).
extension ServerRoutes {
    static func channelsRoutes(_ context: RouteContext) -> [Route] {
        [
            .get(.exact("/api/channels"), access: .watch) { _, _ in
                .json(encoding: context.channels.all.map { ChannelSummary($0, state: context.state($0)) })
            },
            .put(.prefix("/api/channels/"), access: .admin) { _, rest in
                let name = Route.decoded(rest)
                return .pending(PendingRequest { core, id, request in core.channelPutAdmitted(id, name: name, request: request) })
            },
            .delete(.prefix("/api/channels/"), access: .admin) { _, rest in
                let name = Route.decoded(rest)
                return .pending(PendingRequest { core, id, _ in core.channelDeleted(id, name: name) })
            },
        ]
    }
}

/// One channel as `GET /api/channels` lists it, its fields named as `state` names them.
struct ChannelSummary: Encodable {
    /// What it plays, as `state.source` says it: never credentials or a server path.
    struct Source: Encodable {
        let kind: SourceState.Kind
        let name: String
    }

    let name: String
    let source: Source
    /// Whether what it plays is online (`state.source.online`).
    let online: Bool
    /// Whether its live input is closed because nobody watches: it opens for the next viewer,
    /// and `online` is false meanwhile.
    let idle: Bool
    /// Not `state.playing`.
    let paused: Bool
    /// How many watch it over `/ws`.
    let viewers: Int
    /// Its filter chain, as `state.chain`.
    let filter: [SessionState.Link]
    /// The URL of its `/snapshot.jpg`, relative to the server (a channel's name needs no
    /// percent-encoding: ``ChannelName``'s characters are a URL's own).
    let snapshot: String

    init(_ channel: Channel, state: SessionState) {
        name = channel.name.description
        source = Source(kind: state.source.kind, name: state.source.name)
        online = state.source.online
        idle = channel.session.playback.isIdle
        paused = !state.playing
        viewers = state.viewers
        filter = state.filter.links.map(SessionState.Link.init)
        snapshot = "/snapshot.jpg?channel=\(channel.name)"
    }
}
