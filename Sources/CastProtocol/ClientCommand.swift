/// What a client asks the server to do: one per text message, named by its `"type"`.
///
/// Two kinds, for the two places that carry them out: a ``ConnectionCommand`` concerns only the
/// connection that sent it (its viewer handles it), a ``SessionCommand`` changes the session every
/// viewer shares (the session applies it, and everyone is told). The parser checks types and the
/// ranges it can know on its own; what depends on the session (the filter catalog, the source's
/// length, whether it can seek) is the session's to check.
public enum ClientCommand: Sendable, Equatable {
    case connection(ConnectionCommand)
    case session(SessionCommand)
}

/// A command about the sending connection alone: acknowledgements, its flow window, its token,
/// what it watches. Nobody else sees a difference.
public enum ConnectionCommand: Sendable, Equatable {
    /// The client has shown this frame and every earlier one; `heldMilliseconds` (v1 addition,
    /// nil when not said): how long it held the frame between receiving and acknowledging it
    /// (its decoder's lag), 0…``maximumHeldMilliseconds``.
    case frameAck(sequence: UInt64, heldMilliseconds: Int? = nil)
    /// At most `window` unacknowledged frames in flight, 0…``maximumWindow``; 0 turns
    /// acknowledgements off.
    case flow(window: Int)
    case auth(token: String)
    /// Frames from now on by `transport`, from the rendition `rendition` names (nil or `auto`:
    /// the server picks, and moves the viewer as its link allows). Not yet checked against
    /// what the server offers (`hello.renditions`). `audio`: sound from now on, or none (nil:
    /// as before).
    case watch(transport: FrameTransport, rendition: String?, audio: Bool?)
    /// The sender's display name from now on (v1 addition; checked: ``PersonName``), for every
    /// connection of its page: `state.people`, and who changed what.
    case name(String)

    /// The largest `heldMs` of a `frameAck`: a minute.
    public static let maximumHeldMilliseconds = 60_000

    /// The largest ``flow(window:)``.
    public static let maximumWindow = 16
}
