import FilterKit

/// Everything a viewer shows about the session: the `state` message, the `state` inside `hello`
/// and `GET /api/state`.
///
/// Encodes as `{"source":{…},"playing":…,"position":…,"duration":…,"filter":{"name":…,"params":{…}},"viewers":…,"fps":…}`
/// with every key always present: `duration` is `null` for live sources. Numbers that are not
/// finite (a rate measured over no time, say) encode as 0, or as `null` where null is allowed,
/// rather than making the message unencodable.
public struct SessionState: Sendable, Equatable, Encodable {
    public var source: SourceState
    public var playing: Bool
    /// Seconds from the start of the source.
    public var position: Double
    /// Seconds; nil for live sources.
    public var duration: Double?
    public var filter: FilterSettings
    /// Clients connected to the WebSocket.
    public var viewers: Int
    /// Frames per second actually delivered, measured by the server.
    public var fps: Double

    public init(source: SourceState, playing: Bool, position: Double, duration: Double?,
                filter: FilterSettings, viewers: Int, fps: Double) {
        self.source = source
        self.playing = playing
        self.position = position
        self.duration = duration
        self.filter = filter
        self.viewers = viewers
        self.fps = fps
    }

    private enum CodingKeys: String, CodingKey {
        case source, playing, position, duration, filter, viewers, fps
    }

    private enum FilterKeys: String, CodingKey {
        case name, params
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(playing, forKey: .playing)
        try container.encode(position.isFinite ? position : 0, forKey: .position)
        try container.encode(duration.flatMap { $0.isFinite ? $0 : nil }, forKey: .duration)
        var filterContainer = container.nestedContainer(keyedBy: FilterKeys.self, forKey: .filter)
        try filterContainer.encode(filter.name, forKey: .name)
        try filterContainer.encode(filter.values, forKey: .params)
        try container.encode(viewers, forKey: .viewers)
        try container.encode(fps.isFinite ? fps : 0, forKey: .fps)
    }
}
