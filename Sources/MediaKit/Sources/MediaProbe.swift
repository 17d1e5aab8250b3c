/// Reads what a media file is without playing it.
public enum MediaProbe {
    /// The length of the video in `path` in seconds; nil when it cannot be opened or has no
    /// known length. Fragmented MP4s (recordings, also cut short) report the fragments they hold.
    public static func duration(of path: String) -> Double? {
        (try? Decoder(url: path))?.duration
    }
}
