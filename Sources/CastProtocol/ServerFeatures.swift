import FilterKit

/// What a server has beside its filters and renditions, told once in `hello` (v1 additions, each
/// absent or false on a server without it): a media folder to list (`GET /api/media`), uploads
/// it takes, the sound a client may ask for (`watch {audio: true}`), the connection's channel, saved looks.
public struct ServerFeatures: Sendable, Equatable {
    /// `hello.mediaFolder`: the server has one (`--media-dir`).
    public var mediaFolder: Bool
    /// `hello.uploads`, there when the server takes uploaded files.
    public var uploads: UploadOffer?
    /// `hello.audio`: what the server sends when asked; nil (null) when it cannot send any.
    public var audio: SourceAudio?
    /// `hello.channel`: the name of the channel the connection is on (`?channel=` of its URL,
    /// or the default channel's).
    public var channel: String?
    /// `hello.looks`: `true` when the server keeps saved looks (`saveLook`, `GET /api/looks`).
    public var looks: Bool
    /// `hello.regions`: the regions a chain link may name (``FilterRegion``), as `/api/filters`
    /// gives them; nil (absent) where the catalog offers `all` only (no person matte).
    public var regions: [FilterRegion]?

    public init(mediaFolder: Bool = false, uploads: UploadOffer? = nil, audio: SourceAudio? = nil, channel: String? = nil,
                looks: Bool = false, regions: [FilterRegion]? = nil) {
        self.looks = looks
        self.regions = regions
        self.mediaFolder = mediaFolder
        self.uploads = uploads
        self.audio = audio
        self.channel = channel
    }
}
