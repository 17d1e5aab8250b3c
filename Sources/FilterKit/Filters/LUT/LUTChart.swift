/// The reference picture a LUT's thumbnail shows it on, made in code (so every server shows the
/// same): ``width``×``height`` (the style thumbnails' size), from the top
/// - a hue–lightness sweep (64 rows): hue 0–360° left to right, lightness 85 % to 15 % down, full saturation;
/// - a grey ramp (16 rows), black to white;
/// - six patches (32 rows) of the ColorChecker's first row: dark skin, light skin, blue sky,
///   foliage, blue flower, bluish green — the skin tones a grade is judged on first.
///
/// ``frame(graded:)`` grades it in RGB (as ``LUTTable`` does, through ``LUTGrade``) before it is
/// subsampled, so that the thumbnail is the LUT's colours, not a YUV table's approximation. Pure:
/// any thread; a frame takes well under a millisecond in a release build.
public enum LUTChart {
    public static let width = 192
    public static let height = 112
    static let sweepRows = 64
    static let rampRows = 16
    /// The ColorChecker's first row, sRGB.
    static let patches: [(Float, Float, Float)] = [(115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67),
                                                   (133, 128, 177), (103, 189, 170)]

    /// The chart's colour at `(x, y)`, RGB 0…255.
    static func colour(x: Int, y: Int) -> (Float, Float, Float) {
        if y < sweepRows {
            let lightness = 0.85 - 0.7 * Float(y) / Float(sweepRows - 1)
            return hsl(hue: Float(x) * 6 / Float(width), lightness: lightness)
        }
        if y < sweepRows + rampRows {
            let grey = Float(x) * 255 / Float(width - 1)
            return (grey, grey, grey)
        }
        return patches[min(x * patches.count / width, patches.count - 1)]
    }

    /// A fully saturated colour of `hue` (0…6: red, yellow, green, cyan, blue, magenta) and `lightness` (0…1), 0…255.
    private static func hsl(hue: Float, lightness: Float) -> (Float, Float, Float) {
        let chroma = (1 - abs(2 * lightness - 1)) * 255
        let second = chroma * (1 - abs(hue.truncatingRemainder(dividingBy: 2) - 1))
        let low = lightness * 255 - chroma / 2
        let (r, g, b): (Float, Float, Float) = switch Int(hue) {
        case 0: (chroma, second, 0)
        case 1: (second, chroma, 0)
        case 2: (0, chroma, second)
        case 3: (0, second, chroma)
        case 4: (second, 0, chroma)
        default: (chroma, 0, second)
        }
        return (r + low, g + low, b + low)
    }

    /// The chart graded by `lut` (nil: as it is), as a new frame (full-range BT.601, 4:2:0: each
    /// chroma sample the mean of its 2×2 block's).
    public static func frame(graded lut: CubeLUT?) -> Frame {
        let grade = lut.map(LUTGrade.init)
        let frame = Frame(width: width, height: height)
        func code(_ value: Float) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
        for cy in 0..<height / 2 {
            for cx in 0..<width / 2 {
                var cb: Float = 0, cr: Float = 0
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (x, y) = (2 * cx + dx, 2 * cy + dy)
                    let (r, g, b) = colour(x: x, y: y)
                    let graded = grade.map { $0.rgb(r, g, b) } ?? (r, g, b)
                    let yuv = LUTGrade.ycbcr(graded.0, graded.1, graded.2)
                    frame.y.row(y)[x] = code(yuv.0)
                    cb += yuv.1
                    cr += yuv.2
                }
                frame.u.row(cy)[cx] = code(cb / 4)
                frame.v.row(cy)[cx] = code(cr / 4)
            }
        }
        return frame
    }
}
