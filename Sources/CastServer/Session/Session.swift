import CastProtocol
import FilterKit
import Logging
import MediaKit
import Synchronization
import Telemetry

/// The one owner of the shared state — source, playing, position, filter — for every viewer.
///
/// Commands from any client become calls here; each is validated, applied, and then the caller
/// (the transport) publishes the new state to everyone. Nothing else changes this state.
public final class Session: Sendable {
    public let player: Player
    /// The program's chain: what every viewer sees.
    public let selection: FilterSelection
    /// The preview's chain (studio mode), which only controllers see until a `take`.
    public let studio: Studio
    public let catalog: FilterCatalog
    /// Records the session's frames (`record`); nil when the server does not record.
    public let recorder: Recorder?
    /// Pushes the filtered frames to a media server (`--publish`); nil when not publishing.
    public let publisher: Publisher?
    /// The files `open` and `delete` may name; nil when the server has none.
    public let library: MediaLibrary?
    /// The looks of the running filtered recording, written beside it when it finishes.
    let lookLog: RecordingLookLog
    /// What is playing; `open` replaces it.
    let sourceState: Mutex<SourceState>
    /// The input the server was started with (`--input`), as first opened, and how to open it
    /// again (`open {source: "input"}`; nil: it cannot be).
    let startSource: SourceState
    let startInfo: SourceInfo
    /// The start input's path when it is a file (or a URL that can seek); nil for a live input.
    let startFile: String?
    let inputOpener: InputOpener?
    /// The URLs `open` may play (`--allow-source`); nil: none.
    let urlSources: URLSources?
    /// Bumped on play and pause: the processor flags the first frame after it. (Filter changes
    /// are seen through `FilterRunner.appliedGeneration`, seeks through `Frame.isDiscontinuity`:
    /// both arrive with the very frame they affect.)
    let transportGeneration = Atomic<Int>(0)
    /// Asks the processing loop to show the current frame again (a filter change or pause while
    /// no frame may come, a newcomer); the loop serves the requests it has counted.
    let rerender: RerenderRequest
    /// The compare view shown to all (`setCompare`); nil until a controller sets it.
    let compare = Mutex<CompareView?>(nil)
    /// The program's chain while a recording plays as recorded (`open {asRecorded}`: no filter on
    /// top of the one it was recorded with), given back when the start input plays again; nil
    /// when none was set aside or a chain was chosen since.
    let chainAside = Mutex<FilterChain?>(nil)
    /// The client whose camera is the source (`share`), if any; the transport's thread only.
    let sharing = Mutex<CameraShare?>(nil)
    /// What a shared camera may send (`--ingest-*`).
    let ingestLimits: IngestLimits
    let ingestCounters = IngestCounters()
    /// The largest frames a source is given (a larger one is reduced to its pixels, its shape
    /// kept): the session's frames take the size of what plays (the player's
    /// ``PlaybackOptions/sizeFollowsSource``). Nil: every source is fitted into the first one's
    /// size (`--size`).
    let largestFrame: (width: Int, height: Int)?
    /// How much of the pictures a seek decoded the files it plays keep for the steps after it.
    let stepCache: StepCacheBudget
    /// Its lines carry its channel's name (the player's scope).
    var log: LogScope { player.log }

    /// `inputOpener` opens `input` again (at the player's frame size unless the size follows
    /// what plays, ``largestFrame``; see ``InputSpec/opener(_:)``).
    public init(player: Player, input: InputSpec, filter: FilterChain, catalog: FilterCatalog = .standard,
                recorder: Recorder? = nil, publisher: Publisher? = nil, library: MediaLibrary? = nil,
                inputOpener: InputOpener? = nil, urlSources: URLSources? = nil,
                ingestLimits: IngestLimits = IngestLimits(), lookLog: RecordingLookLog = RecordingLookLog(),
                largestFrame: (width: Int, height: Int)? = nil, stepCache: StepCacheBudget = StepCacheBudget()) {
        self.player = player
        self.largestFrame = largestFrame
        self.stepCache = stepCache
        self.lookLog = lookLog
        self.ingestLimits = ingestLimits
        self.urlSources = urlSources
        rerender = RerenderRequest(wake: { player.output.poke() })
        studio = Studio(rerender: RerenderRequest(wake: { player.output.poke() }))
        self.inputOpener = inputOpener
        self.catalog = catalog
        self.recorder = recorder
        self.publisher = publisher
        self.library = library
        selection = FilterSelection(filter)
        let info = player.info
        let kind: SourceState.Kind = switch input {
        case .testPattern: .test
        case .camera, .firstCamera: .camera
        case .file: info.isLive ? .stream : .file
        }
        startInfo = info
        startFile = if case .file(let path) = input, kind == .file { path } else { nil }
        startSource = SourceState(kind: kind, name: SourceNames.input(input, opened: info), seekable: !info.isLive,
                                  width: info.width, height: info.height, fps: info.frameRate,
                                  reference: Self.startInputReference, audio: Self.wireAudio(info.audio))
        sourceState = Mutex(startSource)
    }

    /// Whether the source delivers frames (for /metrics): false once playback failed, and while
    /// a live source is offline — not while it is closed because nobody watches (`--idle-close`):
    /// that is no failure.
    public var sourceOnline: Bool {
        let playback = player.playbackState
        return playback.error == nil && (playback.isOnline || playback.isIdle)
    }

    /// The path of the file playing (the start input's, or the library file `open` named), for
    /// its seek-bar thumbnails; nil while a live source plays (test pattern, camera, stream,
    /// shared camera). A URL that can seek is given as it is (it names no file on this disk).
    func playingFile() -> String? {
        let source = sourceState.withLock { $0 }
        guard source.kind == .file, source.seekable else { return nil }
        if source.startInput { return startFile }
        guard let reference = source.reference, let library else { return nil }
        return try? library.resolve(reference).path
    }

    /// Whether a recording is running (for /metrics and the periodic `state`).
    public var recordingActive: Bool { recorder?.status.isActive ?? false }

    /// Playing or paused, position, online: the player's state now.
    package var playback: PlaybackState { player.playbackState }

    /// How a file from the library is opened: at its own size (at most ``largestFrame``'s pixels),
    /// or fitted into the session's.
    var fileOptions: SourceOptions {
        var options = SourceOptions()
        options.stepCache = stepCache
        if let largestFrame {
            options.maximumPixels = largestFrame.width * largestFrame.height
        } else {
            options.outputSize = (player.pool.width, player.pool.height)
        }
        return options
    }

    /// The size a camera of `width × height` is played at: its own (reduced to ``largestFrame``'s
    /// pixels), or the session's.
    func frameSize(forCamera width: Int, _ height: Int) -> (width: Int, height: Int) {
        guard let largestFrame else { return (player.pool.width, player.pool.height) }
        return PictureFit.size(ofWidth: width, height: height, maximumPixels: largestFrame.width * largestFrame.height)
    }

    /// How often a frame comes at most: `maxFPS`, else the source's rate (30 when it says none).
    func frameInterval(maxFPS: Double?) -> Duration {
        .frameInterval(perSecond: maxFPS ?? player.info.frameRate ?? 30)
    }

    /// Why the source is offline, naming it as clients know it (a library file by its
    /// reference, not the server's path).
    func offlineReason(_ playback: PlaybackState) -> String? {
        let path = player.info.name
        let name = sourceState.withLock { $0.name }
        return playback.offlineReason.map { $0.replacingOccurrences(of: path, with: name) }
    }

    /// The state every viewer sees.
    public func state(viewers: Int, fps: Double) -> SessionState {
        let playback = player.playbackState
        var source = sourceState.withLock { $0 }
        source.online = playback.isOnline
        source.reason = offlineReason(playback)
        source.retryIn = playback.retryAt.map { RetryCountdown(retryAt: $0).remaining(at: .now) }
        // A shared camera is the source from `share start` on, before the decode thread plays it;
        // a file's sound is known from the `open` that named it (the decode thread takes the file
        // a little later: the player's would be the previous source's). Others' once they play.
        if let shared = sharing.withLock({ $0.map { $0.source.info.audio } }) {
            source.audio = Self.wireAudio(shared)
        } else if source.kind != .file {
            source.audio = Self.wireAudio(player.audio)
            // A stream or live input takes its size when it plays (a stream opened on the decode
            // thread, an input that came back at another size): its frames' size.
            let frames = player.pool
            (source.width, source.height) = (frames.width, frames.height)
        }
        var state = SessionState(source: source, playing: playback.isPlaying,
                                 position: playback.position, duration: playback.duration, filter: selection.chain,
                                 viewers: viewers, fps: fps, recording: recordingState)
        state.frame = playback.position.isFinite ? Int((playback.position * Self.frameRate(of: player.info)).rounded()) : 0
        state.speed = playback.speed
        state.loop = loopRange
        state.preview = studio.previewChain
        state.compare = compare.withLock { $0 }
        return state
    }

    /// A source's sound as the state tells it.
    static func wireAudio(_ audio: AudioStreamInfo?) -> SourceAudio? {
        audio.map { SourceAudio(codec: $0.codec, channels: $0.channels, rate: $0.rate) }
    }

    /// Applies `command` of client `client` (the transport's name for its connection). Throws
    /// without changing anything when the command is invalid; the error carries no id (the
    /// viewer, which answers the command, stamps it). Returns the client whose camera stopped
    /// being the source because of it — another client took over, or another source was opened —
    /// to be told why; nil when no sharing ended, or the sharer stopped it itself.
    @discardableResult
    public func apply(_ command: SessionCommand, from client: Int) throws(ProtocolError) -> SharingEnded? {
        let sharerBefore = sharer
        try change(command, from: client)
        guard let sharerBefore, sharer != sharerBefore, command != .share(nil) else { return nil }
        return SharingEnded(sharer: sharerBefore,
                            reason: sharer == nil ? SharingEnded.anotherSource : SharingEnded.takenOver)
    }

    private func change(_ command: SessionCommand, from client: Int) throws(ProtocolError) {
        switch command {
        case .setFilter(let name, let parameters, let target):
            select(FilterChain(try validated { () throws(FilterError) in
                try FilterSettings(name: name, parameters: parameters, catalog: catalog)
            }), to: target)
        case .setFilterChain(let links, let target):
            select(try validated { () throws(FilterError) in
                try FilterChain(validating: links.map(\.unvalidated), catalog: catalog)
            }, to: target)
        case .setParams(let parameters, let index, let target):
            let chain = target == .program ? selection.chain : try studio.requireChain(for: "setParams to the preview")
            select(try withParameters(parameters, index: index, in: chain), to: target)
        case .take(let transition):
            try take(transition)
        case .setCompare(let change):
            compare.withLock { $0 = ($0 ?? .initial).changed(by: change) }
        case .play:
            playForwardFromTheStart()
            player.play()
            transportGeneration.add(1, ordering: .relaxed)
        case .pause:
            player.pause()
            transportGeneration.add(1, ordering: .relaxed)
            rerender.request()
        case .seek(let position):
            try seek(to: position)
        case .step(let frames):
            try step(frames)
        case .speed(let rate):
            try setSpeed(rate)
        case .loop(let range):
            try setLoop(range)
        case .record(let start, let filtered):
            try record(start: start, filtered: filtered)
        case .open(let reference, let asRecorded):
            try open(reference, asRecorded: asRecorded)
        case .delete(let reference):
            try delete(reference)
        case .share(let request?):
            try startSharing(request, by: client)
        case .share(nil):
            endSharing(of: client, because: "the sharer stopped")
        case .saveLook, .applyLook, .deleteLook:
            // The server's looks are the core's (ServerCore+Looks), which hands a session a look's chain.
            throw ProtocolError(code: .invalidArgument, message: "looks are not kept by a channel's session")
        case .present, .point, .comment:
            // The presenter, the pointers and the comments are the channel's room's (ServerCore+Room).
            throw ProtocolError(code: .invalidArgument, message: "the presenter is not kept by a channel's session")
        }
    }

    /// Seeks the source, when what plays can: the position was checked by the parser.
    private func seek(to position: Double) throws(ProtocolError) {
        let source = sourceState.withLock { $0 }
        guard source.seekable else {
            throw ProtocolError(code: .notSeekable, message: "\(source.name) is live and cannot seek")
        }
        endLoop(unlessContaining: position)
        player.seek(to: position)
    }

    /// Pauses, then moves the playhead `frames` frames of the source from where it is going (a
    /// step not yet carried out counts: steps in a row add up); before the first frame it stops
    /// at the first, past the end at the last.
    private func step(_ frames: Int) throws(ProtocolError) {
        let source = sourceState.withLock { $0 }
        guard source.seekable else {
            throw ProtocolError(code: .notSeekable, message: "\(source.name) is live and cannot step")
        }
        if player.playbackState.isPlaying {
            player.pause()
            transportGeneration.add(1, ordering: .relaxed)
        }
        let rate = Self.frameRate(of: player.info)
        // A step past the end aims far past it (``Player/seek(to:)``): the next one counts from the end.
        let from = min(player.playheadTarget, player.playbackState.duration ?? .infinity)
        let frame = (from * rate).rounded() + Double(frames)
        endLoop(unlessContaining: max(0, frame) / rate)
        player.seek(to: max(0, frame) / rate)
    }

    /// A source's frames a second, for numbering its frames (25 where it does not say).
    static func frameRate(of info: SourceInfo) -> Double { info.numberingRate }

    /// `chain` with `parameters` of link `index` (nil: 0) changed, checked against the catalog.
    private func withParameters(_ parameters: [String: ParameterValue], index: Int?,
                                in chain: FilterChain) throws(ProtocolError) -> FilterChain {
        let link = index ?? 0
        guard link < chain.addressableCount else {
            throw ProtocolError(code: .outOfRange, message: chain.links.isEmpty
                ? "setParams.index must be 0 while there is no filter, got \(link)"
                : "setParams.index must be in 0…\(chain.links.count - 1) for the current chain of \(chain.links.count), got \(link)")
        }
        return try validated { () throws(FilterError) in
            do throws(FilterError) {
                return try chain.replacingParameters(at: link, with: parameters, catalog: catalog)
            } catch {
                // Name the link when the client named one or the chain has several.
                throw index != nil || chain.links.count > 1 ? FilterError.inChain(index: link, error) : error
            }
        }
    }

    /// `body`'s result, or its catalog error as the protocol error.
    private func validated<T>(_ body: () throws(FilterError) -> T) throws(ProtocolError) -> T {
        do {
            return try body()
        } catch {
            throw ProtocolError(error)
        }
    }

    /// The catalog's choices moved (a LUT was deleted): each chain is validated again, so that the
    /// index its state gives a choice parameter is the catalog's now (its id is unchanged). True
    /// when a chain changed. A chain that no longer validates (it named the deleted LUT, which
    /// DELETE refuses) is left as it is.
    func catalogChoicesMoved() -> Bool {
        var changed = false
        for target in ChainTarget.allCases {
            guard let chain = target == .program ? selection.chain : studio.previewChain,
                  let again = try? FilterChain(validating: chain.links.map { ($0.name, $0.parameters, $0.region) }, catalog: catalog),
                  again != chain else { continue }
            select(again, to: target)
            changed = true
        }
        return changed
    }

    /// Makes `chain` the program's or the preview's, and has the current frame shown with it
    /// (a preview's change to the preview's outputs only). A program chosen while a recording
    /// plays as recorded is the one to keep: the chain set aside is forgotten.
    func select(_ chain: FilterChain, to target: ChainTarget) {
        switch target {
        case .program:
            chainAside.withLock { $0 = nil }
            selection.select(chain)
            lookLog.note(chain)
            rerender.request()
        case .preview:
            studio.select(chain)
        }
    }

    /// Puts the preview's chain on air; the preview keeps it, so editing goes on from there. A
    /// fade has the processing loop mix the old chain's picture into the new one's meanwhile.
    private func take(_ transition: TakeTransition) throws(ProtocolError) {
        let chain = try studio.requireChain(for: "take")
        if case .fade(let seconds) = transition { studio.startFade(from: selection.chain, seconds: seconds, at: .now) }
        select(chain, to: .program)
    }
}
