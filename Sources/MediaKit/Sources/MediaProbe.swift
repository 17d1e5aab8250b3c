/// Reads what a media file is without playing it.
public enum MediaProbe {
    /// The length of the video in `path` in seconds; nil when it cannot be opened or has no
    /// known length. Fragmented MP4s (recordings, also cut short) report the fragments they hold.
    public static func duration(of path: String) -> Double? {
        (try? Decoder(url: path))?.duration
    }

    /// What a listing shows of a file: its length (as ``duration(of:)``) and, for a recording
    /// made filtered, the filter it was made with (``recordedFilterKey`` in its metadata).
    public struct Summary: Sendable, Equatable {
        public var duration: Double?
        public var recordedFilter: String?

        public init(duration: Double? = nil, recordedFilter: String? = nil) {
            (self.duration, self.recordedFilter) = (duration, recordedFilter)
        }
    }

    /// The metadata key (MP4 `©cmt`) a filtered recording names its filter in, behind ``recordedFilterPrefix``.
    public static let recordedFilterKey = "comment"
    public static let recordedFilterPrefix = "FilterCast filter: "

    /// ``Summary`` of `path`, opened once; nil fields when unknown.
    public static func summary(of path: String) -> Summary {
        guard let decoder = try? Decoder(url: path) else { return Summary() }
        let comment = decoder.metadata(recordedFilterKey)
        let filter = comment.flatMap { $0.hasPrefix(recordedFilterPrefix) ? String($0.dropFirst(recordedFilterPrefix.count)) : nil }
        return Summary(duration: decoder.duration, recordedFilter: filter.map { String($0.prefix(200)) })
    }
}
