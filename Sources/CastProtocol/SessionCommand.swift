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

/// How a change reads in the activity: the key a burst of it coalesces by, and a sentence for
/// people (`state.activity`). Every command has its sentence, beside its case: one added later
/// fails to compile until it says what it did.
extension SessionCommand {
    /// Changes made by dragging a control (a parameter's slider, the seek bar, the compare
    /// divider, repeated steps): those with the same key from one person coalesce into one entry.
    public var burstKey: String? {
        switch self {
        case .setParams(let params, let index, let target):
            return "setParams \(target) \(index ?? 0) " + params.keys.sorted().joined(separator: ",")
        case .seek: return "seek"
        case .step: return "step"
        case .setCompare: return "setCompare"
        default: return nil
        }
    }

    /// "Ana switched the look to sepia": the change `name` made, `chain` naming the program's
    /// filters after it, `comment` the comment a `comment` command is about.
    public func summary(by name: String, chain: [String], about comment: Comment? = nil) -> String {
        "\(name) " + sentence(chain: chain, about: comment)
    }

    private func sentence(chain: [String], about comment: Comment?) -> String {
        switch self {
        case .setFilter(let filter, _, let target): return "switched the look\(target.activitySuffix) to \(filter)"
        case .setFilterChain(let links, let target):
            return "switched the look\(target.activitySuffix) to " + (links.isEmpty ? "none" : links.map(\.name).joined(separator: " + "))
        case .applyLook(let look, let target): return "applied the look \(look)\(target.activitySuffix)"
        case .setParams(let params, let index, let target):
            let link = target == .program && (index ?? 0) < chain.count ? chain[index ?? 0] + " " : ""
            let values = params.keys.sorted().map { "\($0) \(params[$0]!)" }.joined(separator: ", ")
            return "set \(link)\(values)\(target.activitySuffix)"
        case .take: return "took the preview on air"
        case .setCompare(let change): return change.on ? "showed the compare view" : "hid the compare view"
        case .play: return "pressed play"
        case .pause: return "paused"
        case .seek(let position): return "jumped to \(Self.timecode(position))"
        case .step(let frames): return "stepped \(abs(frames)) frame\(abs(frames) == 1 ? "" : "s") \(frames < 0 ? "back" : "forward")"
        case .record(let start, _): return start ? "started recording" : "stopped recording"
        case .open(let source, _): return "opened \(source)"
        case .delete(let source): return "deleted \(source)"
        case .share(let request): return request == nil ? "stopped sharing a camera" : "shared a camera"
        case .saveLook(let look, _): return "saved the look \(look)"
        case .deleteLook(let look): return "deleted the look \(look)"
        case .present(let take, _): return take ? "presents" : "stopped presenting"
        case .speed(let rate): return "set the speed to \(PlaybackRate.describe(rate.value))×"
        case .loop(let range): return range.map { "looped \(Self.timecode($0.in))–\(Self.timecode($0.out))" } ?? "ended the loop"
        case .point: return "pointed at the picture"
        case .comment(let command): return command.sentence(about: comment)
        }
    }

    /// `seconds` as m:ss.t.
    static func timecode(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        let secondsPart = tenths % 600
        return "\(tenths / 600):\(secondsPart < 100 ? "0" : "")\(secondsPart / 10).\(secondsPart % 10)"
    }
}
