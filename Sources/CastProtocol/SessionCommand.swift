import FilterKit

/// A command that changes the session every viewer shares (only a client that may control sends
/// one): the filter, playback, the source, recordings.
public enum SessionCommand: Sendable, Equatable {
    /// The most frames one `step` moves, either way.
    public static let maximumStep = 250

    /// Switch the program's (or `to` the preview's) filter. `params` may be partial (defaults
    /// fill the gaps) and is not yet checked against the catalog.
    case setFilter(name: String, params: [String: ParameterValue], to: ChainTarget = .program)
    /// Switch to a chain of 1…``FilterChain/maximumLength`` filters applied in order; like
    /// ``setFilter(name:params:to:)``, each link is not yet checked against the catalog.
    case setFilterChain([FilterLinkRequest], to: ChainTarget = .program)
    /// Change some parameters of link `index` of the program's (or the preview's) chain (nil:
    /// link 0); neither the parameters nor whether the chain has that link are checked yet.
    case setParams([String: ParameterValue], index: Int?, to: ChainTarget = .program)
    /// Make the preview chain the program (studio mode), by `transition`. Whether the preview
    /// has a chain is the session's to check.
    case take(TakeTransition)
    /// Show the compare view to every viewer of the session (or stop): `state.compare` becomes
    /// the current one changed by it, and every page follows it.
    case setCompare(CompareView.Change)
    case play
    case pause
    /// Seconds from the start: finite and ≥ 0 (the parser's check, the only one of the number).
    /// Whether the source can seek is the session's to check; past the end means the last frame.
    case seek(position: Double)
    /// Pause, then move the playhead `frames` frames of the source (v1 addition): ±1…``maximumStep``
    /// (the parser's check). Whether the source can seek is the session's to check; before the
    /// first frame means the first, past the end the last.
    case step(frames: Int)
    /// How fast the playhead moves for everyone (v1 addition): backward too; 1 is real time.
    case speed(PlaybackRate)
    /// Play the range over and over, wrapping from its out back to its in (v1 addition); nil ends
    /// the loop. That the range lies within the source is the session's to check.
    case loop(LoopRange?)
    /// Start (`true`) or stop recording; `filtered` (default true) records the filtered frames,
    /// else the source's.
    case record(start: Bool, filtered: Bool)
    /// Switch the session's source to a file of the library: `recordings/NAME` or `media/PATH`.
    /// Not yet checked: the library resolves it. `asRecorded` (v1 addition, default false) plays
    /// it without the program's filter on top — a filtered recording as it was recorded —; the
    /// chain it had comes back with `open {source: "input"}`.
    case open(source: String, asRecorded: Bool = false)
    /// Delete a recording: `recordings/NAME`. Not yet checked: the library resolves it.
    case delete(source: String)
    /// Make the sender's camera the session's source (`start`, with what it will send; the
    /// pictures follow as binary ``IngestPicture`` messages), or stop (nil): the source from
    /// before comes back. Not yet checked against the server's limits.
    case share(ShareRequest?)
    /// Save the chain `from` names as the look `name` (a valid look name; replaces a look of that
    /// name). The server's looks are its own, not a session's: the server core carries it out.
    case saveLook(name: String, from: ChainTarget)
    /// Apply the saved look `name` (a valid look name, not yet known to exist) to the chain `to`
    /// names. The core reads the look and hands the session its chain.
    case applyLook(name: String, to: ChainTarget)
    /// Delete the saved look `name` (a valid look name, not yet known to exist).
    case deleteLook(name: String)
    /// Take (`true`) or give up presenting the channel (v1 addition): while someone presents,
    /// nobody else drives playback. `force`: take it from another presenter (the admin only).
    /// The channel's room carries it out, not its session.
    case present(take: Bool, force: Bool)
    /// Show the sender's laser pointer at a point of the picture, or hide it (nil) (v1 addition):
    /// relayed to the channel, not a change of its state. The channel's room carries it out.
    case point(PointerPosition?)
    /// Add a comment to the source that plays, or edit, resolve or delete one (v1 addition).
    /// The channel's comments carry it out, not its session.
    case comment(CommentCommand)
}

extension SessionCommand {
    /// Whether its `ack` waits until the frame it moves the playhead to is out (`step`, `seek`).
    public var answersOnceShown: Bool {
        switch self {
        case .step, .seek: true
        default: false
        }
    }
}
