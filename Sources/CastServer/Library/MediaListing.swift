/// One folder of the media folder (`--media-dir`), as `GET /api/media` lists it.
public struct MediaListing: Sendable, Equatable, Encodable {
    /// A folder to browse into (`?folder=FOLDER/NAME`) or a file to open (`media/FOLDER/NAME`).
    public struct Entry: Sendable, Equatable, Encodable {
        public enum Kind: String, Sendable, Encodable {
            case folder
            case file
        }

        public var name: String
        public var kind: Kind
        /// Bytes; nil for a folder.
        public var size: Int64?
        /// Seconds of video; nil for a folder, and for a file that cannot be read (or not yet).
        public var duration: Double?

        // Every key is written, `null` included, so that each entry has the same keys.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encode(size, forKey: .size)
            try container.encode(duration.flatMap { $0.isFinite ? $0 : nil }, forKey: .duration)
        }

        private enum CodingKeys: String, CodingKey {
            case name, kind, size, duration
        }
    }

    /// The folder listed, relative to the media folder: its components joined by `/`, `""` for
    /// the media folder itself.
    public var folder: String
    /// Folders first, then files, each sorted by name (case aside).
    public var entries: [Entry]
    /// Whether entries were left out: the folder holds more than ``MediaLibrary/listingLimit``
    /// of them, or more than ``MediaLibrary/scanLimit`` names.
    public var truncated: Bool
}
