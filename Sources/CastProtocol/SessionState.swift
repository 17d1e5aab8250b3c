import FilterKit

/// Everything a viewer shows about the session: the `state` message, the `state` inside `hello`
/// and `GET /api/state`.
///
/// Encodes as `{"source":{…},"playing":…,"position":…,"duration":…,"filter":{"name":…,"params":{…}},
/// "chain":[{"name":…,"params":{…}},…],"viewers":…,"fps":…,"recording":{…},"renditions":[{"id":…,"viewers":…},…]}`
/// with every key always present — but `styleRefreshHz`, present only while a `style` link measured
/// its refresh rate, `preview`, present only where ``previewShown`` (a
/// controller's copy), and `compare`, present once a controller set it: `program` is `chain` again, under its studio-mode name; `filter` is
/// the chain's first link (`none` for the empty chain) for clients that know one filter only: `duration` is `null` for live sources. Numbers that are not
/// finite (a rate measured over no time, say) encode as 0, or as `null` where null is allowed,
/// rather than making the message unencodable.
public struct SessionState: Sendable, Equatable, Encodable {
    public var source: SourceState
    public var playing: Bool
    /// Seconds from the start of the source.
    public var position: Double
    /// The playhead's frame number (0 for the first frame) at the source's frame rate (v1 addition).
    public var frame: Int = 0
    /// Seconds; nil for live sources.
    public var duration: Double?
    /// How fast the playhead moves (`speed`, v1 addition): 1 real time, negative backward.
    public var speed: Double = 1
    /// The in/out loop (`loop`, v1 addition); nil (encoded `null`) without one.
    public var loop: LoopRange?
    /// The program chain: what every viewer sees.
    public var filter: FilterChain
    /// The preview chain (studio mode), nil while the preview has none. Only controllers are told
    /// it: encoded only when ``previewShown``.
    public var preview: FilterChain?
    /// Whether `preview` is encoded: false (the default) for every copy but a controller's.
    public var previewShown = false
    /// The compare view a controller shows to all (`setCompare`); nil (not encoded) until one
    /// does, so a v1 client's state is unchanged.
    public var compare: CompareView?
    /// People connected to the WebSocket: a page's second connection (compare, studio) with the
    /// same `?person=` is the same person, counted once.
    public var viewers: Int
    /// Frames per second actually delivered, measured by the server.
    public var fps: Double
    public var recording: RecordingState
    /// Each rendition of `hello.renditions` and how many clients are on it now (those with none
    /// are not encoded).
    public var renditions: [RenditionUse] = []
    /// How many times a second the program's `style` network refreshed the style (it paints beside
    /// the picture, which moves at the source's rate), measured; nil (not encoded) without a
    /// `style` link or before its first second.
    public var styleRefreshHz: Double?
    /// Who is on the channel, one entry per person (v1 addition); nil (not encoded) where the
    /// server keeps no room (a state without viewers' core).
    public var people: [PersonEntry]?
    /// Who presents the channel (v1 addition): encoded (null for nobody) with ``people``.
    public var presenter: Author?
    /// Who made the latest change to the shared state (v1 addition); nil (not encoded) before any.
    public var changedBy: Author?
    /// Who the viewer it is sent to is, as the others see them (v1 addition): their own entry of
    /// ``people``; nil (not encoded) where the server keeps no room.
    public var you: Author?
    /// The comment whose drawing every viewer is shown (v1 addition: `comment show`), until the
    /// playhead moves: encoded (null for none) with ``people``.
    public var showing: String?

    /// One rendition in `state.renditions`.
    public struct RenditionUse: Sendable, Equatable, Encodable {
        public var id: String
        public var viewers: Int

        public init(id: String, viewers: Int) {
            self.id = id
            self.viewers = viewers
        }
    }

    public init(source: SourceState, playing: Bool, position: Double, duration: Double?,
                filter: FilterChain, viewers: Int, fps: Double, recording: RecordingState = RecordingState()) {
        self.source = source
        self.playing = playing
        self.position = position
        self.duration = duration
        self.filter = filter
        self.viewers = viewers
        self.fps = fps
        self.recording = recording
    }

    private enum CodingKeys: String, CodingKey {
        case source, playing, position, frame, duration, speed, loop, filter, chain, program, preview, compare, viewers, fps, recording, renditions, styleRefreshHz
        case people, presenter, changedBy, you, showing
    }

    /// One link as `{"name":…,"params":{…}}`: every parameter as a number in `params` (a choice's
    /// index for a parameter of the choice kind, as v1 clients read it), and for a filter with
    /// parameters of the choice kind their choices' ids by parameter in `choices` (absent for the
    /// others, whose links stay as they always were), and `region` for a link on the person or the
    /// background only (absent for `all`). `GET /api/channels` shows chains the same way.
    public struct Link: Encodable, Sendable {
        let name: String
        let params: [String: Double]
        let choices: [String: String]?
        let region: String?

        public init(_ settings: FilterSettings) {
            name = settings.name
            params = settings.values
            choices = settings.choices.isEmpty ? nil : settings.choices
            region = settings.region == .all ? nil : settings.region.rawValue
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(source, forKey: .source)
        try container.encode(playing, forKey: .playing)
        try container.encode(position.isFinite ? position : 0, forKey: .position)
        try container.encode(frame, forKey: .frame)
        try container.encode(duration.flatMap { $0.isFinite ? $0 : nil }, forKey: .duration)
        try container.encode(speed.isFinite ? speed : 1, forKey: .speed)
        try container.encode(loop, forKey: .loop)
        try container.encode(Link(filter.first), forKey: .filter)
        try container.encode(filter.links.map(Link.init), forKey: .chain)
        try container.encode(filter.links.map(Link.init), forKey: .program)
        if previewShown { try container.encode(preview.map { $0.links.map(Link.init) }, forKey: .preview) }
        try container.encodeIfPresent(compare, forKey: .compare)
        try container.encode(viewers, forKey: .viewers)
        try container.encode(fps.isFinite ? fps : 0, forKey: .fps)
        try container.encode(recording, forKey: .recording)
        try container.encode(renditions, forKey: .renditions)
        try container.encodeIfPresent(styleRefreshHz.flatMap { $0.isFinite ? $0 : nil }, forKey: .styleRefreshHz)
        if let people {
            try container.encode(people, forKey: .people)
            try container.encode(presenter, forKey: .presenter)
            try container.encode(showing, forKey: .showing)
        }
        try container.encodeIfPresent(changedBy, forKey: .changedBy)
        try container.encodeIfPresent(you, forKey: .you)
    }
}
