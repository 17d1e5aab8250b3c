import FilterKit

/// What a client asks the server to do: one per text message, named by its `"type"`.
///
/// The parser checks types and the ranges it can know on its own; what depends on the session
/// (the filter catalog, the source's length, whether it can seek) is the session's to check.
public enum ClientCommand: Sendable, Equatable {
    /// Switch filters. `params` may be partial (defaults fill the gaps) and is not yet checked
    /// against the catalog.
    case setFilter(name: String, params: [String: ParameterValue])
    /// Switch to a chain of 1…``FilterChain/maximumLength`` filters applied in order; like
    /// ``setFilter(name:params:)``, each link is not yet checked against the catalog.
    case setFilterChain([FilterLinkRequest])
    /// Change some parameters of link `index` of the current chain (nil: link 0); neither the
    /// parameters nor whether the chain has that link are checked yet.
    case setParams([String: ParameterValue], index: Int?)
    case play
    case pause
    /// Seconds from the start: finite and ≥ 0. The upper bound is the session's to check.
    case seek(position: Double)
    /// The client has shown this frame and every earlier one.
    case frameAck(sequence: UInt64)
    /// At most `window` unacknowledged frames in flight, 0…16; 0 turns acknowledgements off.
    case flow(window: Int)
    case auth(token: String)
    /// Start (`true`) or stop recording; `filtered` (default true) records the filtered frames,
    /// else the source's.
    case record(start: Bool, filtered: Bool)
    /// Switch the session's source to a file of the library: `recordings/NAME` or `media/PATH`.
    /// Not yet checked: the library resolves it.
    case open(source: String)
    /// Delete a recording: `recordings/NAME`. Not yet checked: the library resolves it.
    case delete(source: String)

    /// Frames from now on by `transport`, from the rendition `rendition` names (nil or `auto`:
    /// the server picks, and moves the viewer as its link allows). Not yet checked against
    /// what the server offers (`hello.renditions`). `audio`: sound from now on, or none (nil:
    /// as before).
    case watch(transport: FrameTransport, rendition: String?, audio: Bool?)

    /// Make this client's camera the session's source (`start`, with what it will send; the
    /// pictures follow as binary ``IngestPicture`` messages), or stop (nil): the source from
    /// before comes back. Not yet checked against the server's limits.
    case share(ShareRequest?)

    /// The largest ``flow(window:)``.
    public static let maximumWindow = 16
}
