import CastProtocol
import Foundation

/// The renditions a session offers: JPEG and H.264 at a few sizes, each encoded once for all its
/// viewers and only while somebody watches it. Pure: sizes and rates from the source's.
///
/// The standard ladder: JPEG at full, half and quarter size, H.264 at full and half size — each
/// smaller rung only while it is at least 120 (JPEG) or 180 (H.264) lines tall. An H.264 rung's
/// cap is ``bitsPerSecond(width:height:frameRate:fullPixels:)``.
public struct Ladder: Equatable, Sendable {
    /// One H.264 rung: its height, and its cap (nil: the standard one for its size).
    public struct VideoRung: Equatable, Sendable {
        public var height: Int
        public var bitsPerSecond: Int?

        public init(height: Int, bitsPerSecond: Int? = nil) {
            self.height = height
            self.bitsPerSecond = bitsPerSecond
        }
    }

    /// JPEG rungs' heights, largest first.
    public var jpeg: [Int]
    /// H.264 rungs, largest first; empty: no H.264.
    public var h264: [VideoRung]

    public init(jpeg: [Int], h264: [VideoRung]) {
        self.jpeg = jpeg
        self.h264 = h264
    }

    /// The standard ladder for a source `height` lines tall.
    public static func standard(height: Int) -> Ladder {
        let halves = [height, height / 2, height / 4]
        return Ladder(jpeg: halves.enumerated().filter { $0.offset == 0 || $0.element >= 120 }.map(\.element),
                      h264: halves.prefix(2).enumerated().filter { $0.offset == 0 || $0.element >= 180 }
                          .map { VideoRung(height: $0.element) })
    }

    /// The renditions of this ladder for a `width × height` source at `frameRate`: JPEG rungs
    /// first, then H.264, each largest first. Ids name the transport and height (`h264-360p`).
    func renditions(width: Int, height: Int, frameRate: Double) -> [Rendition] {
        let jpegRungs = jpeg.map { rung in
            let size = Self.size(height: rung, sourceWidth: width, sourceHeight: height)
            return Rendition(id: "jpeg-\(size.height)p", transport: .jpeg, width: size.width, height: size.height)
        }
        let videoRungs = h264.map { rung in
            let size = Self.size(height: rung.height, sourceWidth: width, sourceHeight: height)
            let bits = rung.bitsPerSecond
                ?? Self.bitsPerSecond(width: size.width, height: size.height, frameRate: frameRate, fullPixels: width * height)
            return Rendition(id: "h264-\(size.height)p", transport: .h264, width: size.width, height: size.height,
                             bitsPerSecond: bits)
        }
        return jpegRungs + videoRungs
    }

    /// The second pictures' renditions: for each ``SecondPicture`` in order (the preview's, studio
    /// mode, then the source's, the compare view's), JPEG at the sizes of the JPEG rungs of
    /// `renditions`, named by kind and height (`preview-720p`, `source-360p`), each encoded only
    /// while somebody watches it.
    static func seconds(of renditions: [Rendition]) -> [Rendition] {
        let rungs = renditions.filter { $0.transport == .jpeg && $0.isProgram }
        return SecondPicture.allCases.flatMap { picture in
            rungs.map {
                Rendition(id: "\(picture.rawValue)-\($0.height)p", transport: .jpeg, width: $0.width, height: $0.height, second: picture)
            }
        }
    }

    /// A rung `height` lines tall (even, at most the source's), as wide as keeps the source's
    /// shape (even).
    static func size(height: Int, sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        let lines = max(2, min(height, sourceHeight) / 2 * 2)
        guard lines < sourceHeight else { return (sourceWidth, sourceHeight) }
        let width = Int((Double(sourceWidth) * Double(lines) / Double(sourceHeight) / 2).rounded()) * 2
        return (max(2, width), lines)
    }

    /// The standard H.264 cap: about 0.174 bit per pixel of every frame at the source's size,
    /// more per pixel for smaller pictures (× the fourth root of how many times fewer pixels
    /// they have: a quarter of the pixels get 0.24), in steps of 100 kbit/s. Measured on
    /// camera-like 720p25 footage: x264 (CRF 20, `superfast`) under a 4 Mbit/s cap spends 3.6
    /// Mbit/s at SSIM 0.983, against a quality-80 JPEG stream's 24 Mbit/s at 0.986 (CRF 23 under
    /// 2.5 Mbit/s: 2.1 Mbit/s, 0.976). 720p25: 4.0 Mbit/s; 360p25: 1.4 Mbit/s; 1080p30: 10.8.
    static func bitsPerSecond(width: Int, height: Int, frameRate: Double, fullPixels: Int) -> Int {
        let pixels = Double(width * height)
        let perPixel = 0.174 * pow(Double(fullPixels) / pixels, 0.25)
        return max(200_000, Int((perPixel * pixels * max(frameRate, 1) / 100_000).rounded()) * 100_000)
    }
}

/// How a rendition follows the session's size when another source plays: the same share of the
/// source's height (a half-size rung stays half the size, the full-size one is the source's
/// size), the source's shape, and for H.264 the ladder's own cap or else the standard one for the
/// new size. Its `id` stays the one offered in `hello` (what `watch` and `state.renditions` name).
struct RungScale: Sendable, Equatable {
    /// The rendition as offered for the session's first source, `startHeight` lines tall.
    let start: Rendition
    let startHeight: Int
    /// The ladder's cap for this rung (`--h264-ladder`); nil: the standard one for its size.
    let cap: Int?
    let frameRate: Double

    /// Whether it is the source's own size (the full-size rung).
    var isFullSize: Bool { start.height >= startHeight }

    /// The rendition for a `width × height` source.
    func rendition(width: Int, height: Int) -> Rendition {
        let lines = isFullSize ? height : Int((Double(start.height) * Double(height) / Double(startHeight)).rounded())
        let size = Ladder.size(height: lines, sourceWidth: width, sourceHeight: height)
        let bits = start.transport == .h264
            ? cap ?? Ladder.bitsPerSecond(width: size.width, height: size.height, frameRate: frameRate, fullPixels: width * height)
            : nil
        return Rendition(id: start.id, transport: start.transport, width: size.width, height: size.height, bitsPerSecond: bits,
                         second: start.second)
    }
}
