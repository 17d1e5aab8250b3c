extension ErrorCode {
    /// A short human name for the code ("Out of range"), which a page puts before the message.
    /// Sent to pages in `hello.errors`, so that a page does not restate them.
    public var title: String {
        switch self {
        case .badJSON: "Bad message"
        case .unknownType: "Unknown command"
        case .invalidArgument: "Invalid argument"
        case .unknownFilter: "Unknown filter"
        case .outOfRange: "Out of range"
        case .notSeekable: "Not seekable"
        case .tooLarge: "Message too large"
        case .unauthorized: "Not authorized"
        case .rateLimited: "Too many commands"
        case .forbidden: "Not allowed"
        case .notFound: "Not found"
        case .openFailed: "Cannot play"
        case .recordingFailed: "Recording"
        case .busy: "In use"
        case .ingestFailed: "Camera"
        case .lookFailed: "Look"
        case .notPresenter: "Someone else presents"
        }
    }
}
