/// What the server is showing: the `source` object of `state`.
public struct SourceState: Sendable, Equatable, Codable {
    /// What plays, as `state.source.kind` says it.
    public enum Kind: String, Sendable, Codable {
        case file
        /// The built-in test pattern.
        case test
        /// A V4L2 camera of the server.
        case camera
        /// A network URL.
        case stream
        /// A viewer's shared camera (`share`).
        case browser
    }

    public var kind: Kind
    /// What viewers call the source, never a path on the server: for the start input its file
    /// name, a URL without credentials or query, the camera or test pattern; for a library file
    /// its reference (`recordings/NAME`, `media/PATH`); for a shared camera its label.
    public var name: String
    /// Whether `seek` works: files that can seek; never live sources.
    public var seekable: Bool
    /// Picture size of the frames sent, in pixels.
    public var width: Int
    public var height: Int
    /// The source's frame rate, when it declares one.
    public var fps: Double?
    /// False while a live source has failed: the frames sent are placeholders saying why, and
    /// the server reconnects by itself.
    public var online: Bool
    /// Why the source is offline; nil while online.
    public var reason: String?
    /// Seconds until the next reconnection attempt; nil while online or while an attempt is
    /// under way.
    public var retryIn: Double?
    /// Whether this is the input the server was started with (`--input`); false while a library
    /// file plays (`open`), when `open {source: "input"}` is the way back.
    public var startInput: Bool
    /// What `open` names to play this source: `"input"` for the start input, `recordings/NAME`,
    /// `media/PATH` (its components joined by single slashes), a URL without credentials or
    /// query; nil for a shared camera, which only its sharer can bring back.
    public var reference: String?
    /// The source's sound (its first audio stream); nil without, or while none is open.
    public var audio: SourceAudio?

    public init(kind: Kind, name: String, seekable: Bool, width: Int, height: Int, fps: Double?,
                online: Bool = true, reason: String? = nil, retryIn: Double? = nil, startInput: Bool = true,
                reference: String?, audio: SourceAudio? = nil) {
        self.kind = kind
        self.name = name
        self.seekable = seekable
        self.width = width
        self.height = height
        self.fps = fps
        self.online = online
        self.reason = reason
        self.retryIn = retryIn
        self.startInput = startInput
        self.reference = reference
        self.audio = audio
    }

    // Encodes `fps`, `reason`, `retryIn`, `reference` and `audio` as null explicitly (and a rate that is not finite),
    // so that the object always has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(name, forKey: .name)
        try container.encode(seekable, forKey: .seekable)
        try container.encode(width, forKey: .width)
        try container.encode(height, forKey: .height)
        try container.encode(fps.flatMap { $0.isFinite ? $0 : nil }, forKey: .fps)
        try container.encode(online, forKey: .online)
        try container.encode(reason, forKey: .reason)
        try container.encode(retryIn.flatMap { $0.isFinite ? $0 : nil }, forKey: .retryIn)
        try container.encode(startInput, forKey: .startInput)
        try container.encode(reference, forKey: .reference)
        try container.encode(audio, forKey: .audio)
    }
}
