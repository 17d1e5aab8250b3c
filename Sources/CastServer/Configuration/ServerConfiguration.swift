import FilterKit
import MediaKit

/// Everything `filtercast serve` can be told.
public struct ServerConfiguration: Sendable {
    /// The default channel's input (`--input`).
    public var input: InputSpec = .defaultTestPattern
    /// The default channel's name: the one `/ws` and the HTTP routes serve without `?channel=`
    /// (`main`, the channel of `--input`; without `--input`, the first `--channel`).
    public var defaultChannel: ChannelName = .main
    /// The other channels (`--channel NAME=INPUT`), in the order given.
    public var channels: [ChannelInput] = []
    /// `--max-channels`: the most channels, the default one included.
    public var maxChannels = 16
    /// `--channels-file`: the channels kept across restarts (read; channels added and removed at
    /// run time are written to it).
    public var channelsFile: ChannelsFile? {
        get { channelsFileBox.file }
        set { channelsFileBox = FileBox(file: newValue) }
    }
    private var channelsFileBox = FileBox(file: nil)
    public var host = "127.0.0.1"
    /// 0 picks a free port.
    public var port = 8080
    public var quality = 80
    /// Filters that can split a frame into bands use this many threads (the processing thread
    /// and helpers); 1 keeps filtering on the processing thread alone.
    public var filterThreads = 1
    /// Encode at most this many frames a second (nil: the source's rate).
    public var maxFPS: Double?
    /// Scale frames to this size.
    public var outputSize: (width: Int, height: Int)?
    public var filter: FilterChain = .none
    /// The filters the server offers (`filter` was checked against it).
    public var catalog: FilterCatalog = .standard
    /// The static page's folder.
    public var webRoot: String
    /// When set, control commands need this token (`?token=` or an `auth` message).
    public var token: String?
    /// `--admin-token`: what adds and removes channels, and does everything `token` does (nil:
    /// nobody may change the channels at run time).
    public var adminToken: String?
    /// With a token: whether viewers without it may watch.
    public var publicView = false
    /// Origins (`scheme://host[:port]`) allowed besides the server's own host.
    public var allowedOrigins: [String] = []
    public var maxClients = 200
    /// `--max-channel-viewers`: the most viewers and MJPEG readers of one channel (nil: only
    /// `maxClients`, over all channels, bounds them).
    public var maxChannelViewers: Int?
    /// Speed, looping and `--idle-close` (default 10 s).
    public var playback = PlaybackOptions(idleClose: .seconds(10))
    /// `--always-on`: the channels whose live input stays open while nobody watches (a channel
    /// of the channels file may say so too: ``ChannelInput/alwaysOn``).
    public var alwaysOn: Set<ChannelName> = []
    /// Channels' own control tokens (``ChannelInput/token``), by channel.
    public var channelTokens: [ChannelName: String] = [:]
    /// Where recordings go (`--recordings`), the size limit and the free-space minimum.
    public var recording = RecorderOptions(directory: "recordings")
    /// Start recording (the filtered frames) at once (`--record`).
    public var recordAtStart = false
    /// Files clients may also open, read-only (`--media-dir`).
    public var mediaDirectory: String?
    /// The colour LUTs of the `lut` filter (`--luts`), read; the catalog offers them (nil: no `lut`
    /// filter, and `PUT /api/luts/NAME` is 404).
    public var luts: LUTFolder?
    /// The pictures the `style` filter paints like (`--styles`), read; the catalog offers them (nil:
    /// `/api/styles` is 404).
    public var styles: (any PictureShelf)?
    /// The pictures `backgroundReplace` offers as backgrounds (`DATA/backgrounds`), read; the
    /// catalog offers them (nil: no person matte, `/api/backgrounds` is 404).
    public var backgrounds: (any PictureShelf)?
    /// The saved looks (`--looks`, default `./looks`), read; nil: none (`saveLook` and
    /// `GET /api/looks` answer that the server keeps no looks).
    public var looks: LookFolder?
    /// Where controlling clients may upload video files (`--uploads`); nil: no uploads.
    public var uploadsDirectory: String?
    /// `--data`: the folder the parts above default to (nil: each part named on its own, as in tests).
    public var dataFolder: String?
    /// Every source's comments (`--comments`, default `DATA/comments`; made when first written);
    /// nil: the server keeps none (`comment` is refused).
    public var commentsDirectory: String?
    /// The largest upload, in bytes (`--max-upload-size`).
    public var maxUploadBytes: Int64 = 2_000_000_000
    /// V4L2 pixel format to ask a camera for (`--camera-format`: `mjpeg`, `yuyv422`, …).
    public var cameraFormat: String?
    /// A live source that gives no frame for this long is offline (and reconnected).
    public var stallTimeout: Duration = .seconds(5)
    /// Opening the input gives up after this (at start: exit; a live source's reconnection: retry).
    public var openTimeout: Duration = .seconds(10)
    /// `--http-timeout`: an HTTP connection that sends or takes nothing for this many seconds is
    /// dropped (an idle keep-alive, headers that never end, a stalled download, a snapshot of a
    /// source that gives no picture). Streams that stay on purpose (MJPEG, WebSocket) are exempt.
    public var httpTimeoutSeconds: Int32 = 10
    /// `--step-cache`: bytes of decoded pictures a channel keeps around the playhead for frame steps.
    public var stepCacheBytes = 256 << 20
    /// The media server to push the filtered stream to (`--publish`); nil: none.
    public var publish: PublishTarget?
    /// `--publish-rendition`: the H.264 rendition the published stream shares its encode with.
    public var publishRendition: SharedRendition = .sourceSize
    /// `--allow-source`: the URLs `open` may play.
    public var allowedSources: [SourcePattern] = []
    /// What a shared camera may send (`--max-ingest-bitrate`).
    public var ingestLimits = IngestLimits()
    /// `--record-rendition`: the H.264 rendition filtered recordings share their encode with.
    public var recordRendition: SharedRendition = .own
    /// `--jpeg-ladder`: the JPEG renditions' heights (nil: the standard ones for the source's
    /// size, ``Ladder/standard(height:)``).
    public var jpegLadder: [Int]?
    /// `--h264-ladder`: the H.264 renditions (nil: the standard ones; empty: no H.264).
    public var h264Ladder: [Ladder.VideoRung]?
    /// Serve HTTPS and WSS (instead of HTTP and WS) on the port with these files (`--tls-cert`,
    /// `--tls-key`); nil: plain HTTP.
    public var tls: TLSFiles?

    public init(webRoot: String) {
        self.webRoot = webRoot
    }
}

/// Which encode the published stream (`--publish`) or a filtered recording is.
public enum SharedRendition: Sendable, Equatable {
    /// The page's full-size H.264 rendition, when there is one; else an encode of its own.
    case sourceSize
    /// The H.264 rendition with this id (`h264-360p`).
    case named(String)
    /// An encode of its own at the source's size (a keyframe a second).
    case own
}

/// A channel of `--channel NAME=INPUT`: its name and what it plays.
public struct ChannelInput: Sendable {
    public let name: ChannelName
    public let input: InputSpec
    /// The chain it starts with (nil: the command line's).
    public let filter: FilterChain?
    /// Its live input stays open while nobody watches (`"alwaysOn": true` in the channels file).
    public let alwaysOn: Bool
    /// Its own control token (`"token"` in the channels file): it controls this channel only.
    public let token: String?

    public init(name: ChannelName, input: InputSpec, filter: FilterChain? = nil, alwaysOn: Bool = false, token: String? = nil) {
        self.name = name
        self.input = input
        self.filter = filter
        self.alwaysOn = alwaysOn
        self.token = token
    }

    /// `configuration` as this channel is built with it: its own chain, kept open if it says so,
    /// its own token.
    package func configuring(_ configuration: ServerConfiguration) -> ServerConfiguration {
        var own = configuration
        if let filter { own.filter = filter }
        if alwaysOn { own.alwaysOn.insert(name) }
        if let token { own.channelTokens[name] = token }
        return own
    }
}

/// `ChannelsFile` in a `Sendable` configuration: it is read on the starting thread, then used by
/// the network thread alone.
private struct FileBox: @unchecked Sendable {
    let file: ChannelsFile?
}
