/// The stable code of an `error` message. Clients switch on these; the wording of the message
/// next to them may change.
public enum ErrorCode: String, Sendable, Codable, CaseIterable {
    /// The text message is not JSON, or is JSON but not an object.
    case badJSON = "bad_json"
    /// The message has no `"type"`, or one this server does not know.
    case unknownType = "unknown_type"
    /// A field has the wrong type or is missing, a parameter is unknown, or the client sent a
    /// binary message.
    case invalidArgument = "invalid_argument"
    /// `setFilter` named a filter that is not in the catalog.
    case unknownFilter = "unknown_filter"
    /// A value of the right type outside its allowed range (including infinite numbers).
    case outOfRange = "out_of_range"
    /// `seek` on a live source.
    case notSeekable = "not_seekable"
    /// A message over ``ClientMessageParser/maximumSize`` bytes.
    case tooLarge = "too_large"
    /// A command that needs authentication before it was given.
    case unauthorized
    /// The client sent commands faster than the server accepts them.
    case rateLimited = "rate_limited"
    /// `open` or `delete` named something outside the recordings and media folders: an absolute
    /// path, `..`, a hidden file, a symlink that leads out, a URL.
    case forbidden
    /// `open` or `delete` named a file that does not exist.
    case notFound = "not_found"
    /// `open` named a file that cannot be played (not a video, no decoder).
    case openFailed = "open_failed"
    /// A recording could not start (one is running, free space is short, no encoder), or one
    /// stopped by itself (size limit, free space, a write error).
    case recordingFailed = "recording_failed"
    /// `share` while another client shares its camera (without `takeOver`).
    case busy
    /// A shared camera's pictures that break the limits or do not decode; the sharing stops.
    case ingestFailed = "ingest_failed"
    /// `saveLook` or `deleteLook` could not be carried out: the server keeps as many looks as
    /// it takes, or its looks folder cannot be written.
    case lookFailed = "look_failed"
    /// A playback command (play, pause, seek, step, open, …) while someone else presents the
    /// channel, or a `present take` from someone who may not take it from them (v1 addition).
    case notPresenter = "not_presenter"
}
