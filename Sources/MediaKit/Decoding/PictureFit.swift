import FilterKit

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

    /// The size a `width × height` picture is given when frames may have at most `maximumPixels`:
    /// its own, or reduced to fit with its shape kept (even sides).
    public static func size(ofWidth width: Int, height: Int, maximumPixels: Int) -> (width: Int, height: Int) {
        guard width * height > maximumPixels else { return (width, height) }
        let scale = (Double(maximumPixels) / Double(width * height)).squareRoot()
        return (max(2, Int(Double(width) * scale / 2) * 2), max(2, Int(Double(height) * scale / 2) * 2))
    }

    /// No picture at all: bars painted around it cover the whole frame.
    static let nothing = PictureFit(x: 0, y: 0, width: 0, height: 0)

    private init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
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

extension Frame {
    /// Black (Y 0, chroma 128) outside `fit`, where a picture of another shape leaves bars.
    public func paintBars(around fit: PictureFit) {
        func paint(_ plane: Plane, _ value: UInt8, shift: Int) {
            let top = fit.y >> shift, bottom = (fit.y + fit.height) >> shift
            let left = fit.x >> shift, right = (fit.x + fit.width) >> shift
            for row in 0..<plane.height {
                let line = plane.row(row)
                if row < top || row >= bottom {
                    line.update(repeating: value, count: plane.width)
                } else {
                    line.update(repeating: value, count: left)
                    (line + right).update(repeating: value, count: plane.width - right)
                }
            }
        }
        paint(y, 0, shift: 0)
        paint(u, 128, shift: 1)
        paint(v, 128, shift: 1)
    }
}
