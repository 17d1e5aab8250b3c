/// Where a decoded picture goes in a frame of another shape: as large as fits, centred, its
/// shape kept — a phone held upright (720x1280) in a 1280x720 session fills a 406x720 column
/// with black on either side, a 4:3 file in a 16:9 session is pillarboxed, a 21:9 one
/// letterboxed. Players never stretch, and neither does a filter preview: a stretched face is
/// the first thing a user notices.
///
/// Pixels are taken as square (a file's sample aspect ratio is not applied, as before).
/// Offsets and sizes are even, so that the 4:2:0 chroma planes line up with the luma.
public struct PictureFit: Equatable, Sendable {
    public let x: Int
    public let y: Int
    public let width: Int
    public let height: Int

    /// Shapes within this fraction of each other fill the whole frame: a 1920x1088 picture in a
    /// 1920x1080 frame is scaled, not given a 4-pixel bar.
    public static let tolerance = 0.01

    /// The place of a `pictureWidth × pictureHeight` picture in a `frameWidth × frameHeight` frame.
    public init(pictureWidth: Int, pictureHeight: Int, frameWidth: Int, frameHeight: Int) {
        let picture = Double(max(pictureWidth, 1)) / Double(max(pictureHeight, 1))
        let frame = Double(frameWidth) / Double(frameHeight)
        var width = frameWidth, height = frameHeight
        if abs(picture / frame - 1) > Self.tolerance {
            if picture > frame {
                height = Self.even(Double(frameWidth) / picture, within: frameHeight)
            } else {
                width = Self.even(Double(frameHeight) * picture, within: frameWidth)
            }
        }
        self.width = width
        self.height = height
        x = (frameWidth - width) / 4 * 2
        y = (frameHeight - height) / 4 * 2
    }

    /// Whether the picture covers the whole frame (no bars).
    public func covers(width frameWidth: Int, height frameHeight: Int) -> Bool {
        width == frameWidth && height == frameHeight
    }

    /// `length` rounded to an even number of pixels, at least 2 and at most `limit`.
    private static func even(_ length: Double, within limit: Int) -> Int {
        min(limit, max(2, Int((length / 2).rounded()) * 2))
    }
}
