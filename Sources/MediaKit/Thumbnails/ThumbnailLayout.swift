/// Where the seek bar's thumbnails of a file are taken and where each sits in their sprite: at
/// least one every ``maximumInterval`` seconds of the file and at most ``maximumCount`` in all,
/// evenly spaced from 0, each ``width`` pixels wide (its height keeps the picture's shape), in
/// rows of ``columns`` read left to right, top to bottom.
public struct ThumbnailLayout: Sendable, Equatable, Codable {
    public static let width = 160
    public static let maximumCount = 300
    public static let maximumInterval = 2.0
    public static let maximumColumns = 10
    /// The tallest thumbnail: a very narrow picture is squeezed rather than make a huge sprite.
    public static let maximumHeight = 320

    /// One thumbnail's size in pixels (both even: the sprite is 4:2:0).
    public let width: Int
    public let height: Int
    public let columns: Int
    /// Seconds from the start of the file, one per thumbnail, rising.
    public let times: [Double]

    /// The layout for a file of `duration` seconds (nil, not finite or not positive: one
    /// thumbnail, at 0) whose pictures are `pictureWidth × pictureHeight`.
    public init(duration: Double?, pictureWidth: Int, pictureHeight: Int) {
        let length = duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
        let count = min(Self.maximumCount, max(1, Int((length / Self.maximumInterval).rounded(.up))))
        let interval = length / Double(count)
        times = (0..<count).map { (Double($0) * interval * 1000).rounded(.down) / 1000 }
        width = Self.width
        let shaped = Self.width * max(1, pictureHeight) / max(1, pictureWidth)
        height = min(Self.maximumHeight, max(2, (shaped + 1) / 2 * 2))
        columns = min(Self.maximumColumns, count)
    }

    public var count: Int { times.count }
    public var rows: Int { (count + columns - 1) / columns }
    /// The sprite's size in pixels.
    public var spriteWidth: Int { columns * width }
    public var spriteHeight: Int { rows * height }

    /// The top left corner of thumbnail `index` in the sprite.
    public func origin(of index: Int) -> (x: Int, y: Int) {
        ((index % columns) * width, (index / columns) * height)
    }
}
