/// The server's channels by name, the default one first: what `?channel=NAME` (and its
/// absence) resolves to. A value: the core holds the one in force and replaces it when a
/// channel is added or removed at run time (the default one stays).
package struct ChannelRegistry: Sendable {
    /// What `/ws` and the HTTP routes serve without `?channel=`.
    let defaultChannel: Channel
    /// Every channel, the default one first, then in the order they were given.
    let all: [Channel]
    private let byName: [ChannelName: Channel]

    /// `channels`' first is the default one; their names differ (the command line saw to it).
    package init(_ channels: [Channel]) {
        defaultChannel = channels[0]
        all = channels
        byName = Dictionary(uniqueKeysWithValues: channels.map { ($0.name, $0) })
    }

    /// These channels and `channel` (whose name is none of theirs), last.
    func adding(_ channel: Channel) -> ChannelRegistry { ChannelRegistry(all + [channel]) }

    /// These channels without the one named `name` (never the default one).
    func removing(_ name: ChannelName) -> ChannelRegistry {
        ChannelRegistry(all.filter { $0.name != name || $0 === defaultChannel })
    }

    /// The channel `?channel=` names: the default one when absent, nil when there is none of that name.
    func channel(named text: String?) -> Channel? {
        guard let text else { return defaultChannel }
        guard let name = try? ChannelName(text) else { return nil }
        return byName[name]
    }

    /// The channel named `name`, if there is one.
    package subscript(name: ChannelName) -> Channel? { byName[name] }

    /// The answer to a request for a channel that is not there: 404, naming those that are.
    func unknown(_ text: String) -> HTTPAnswer {
        .status(404, "no channel '\(text)'; the channels are " + all.map(\.name.description).joined(separator: ", "))
    }
}
