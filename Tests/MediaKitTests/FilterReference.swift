import FilterKit
import Foundation
import Testing

/// One testsrc2 picture, and what an ffmpeg filter makes of exactly the same samples: the
/// reference our filters are compared with (see the *ReferenceTests).
struct FilterReference {
    /// The picture as full-range 4:2:0 bytes (Y, then Cb, then Cr).
    let source: [UInt8]
    /// `source` through `ffmpeg -vf filter`, in the same layout.
    let expected: [UInt8]
    let width: Int
    let height: Int

    /// ffmpeg is told the samples are plain yuv420p on both sides, so it converts nothing; a
    /// filter that works on RGB (colorchannelmixer) needs `yuvj420p`, so that ffmpeg converts
    /// them as the full-range samples they are.
    init(width: Int, height: Int, ffmpegFilter: String, pixelFormat: String = "yuv420p") throws {
        self.width = width
        self.height = height
        source = try TestClips.ffmpeg(TestClips.lavfi(width: width, height: height, rate: 1, duration: 1)
            + ["-frames:v", "1", "-pix_fmt", "yuvj420p", "-f", "rawvideo", "-"])
        let input = TestClips.path("reference-\(UUID().uuidString).yuv")
        try Data(source).write(to: URL(fileURLWithPath: input))
        defer { try? FileManager.default.removeItem(atPath: input) }
        expected = try TestClips.ffmpeg([
            "-f", "rawvideo", "-pix_fmt", pixelFormat, "-s", "\(width)x\(height)", "-i", input,
            "-vf", ffmpegFilter, "-f", "rawvideo", "-pix_fmt", pixelFormat, "-",
        ])
    }

    /// PSNR (dB, all three planes) against `expected` of `source` through our filter as
    /// `settings` say, and of `source` unfiltered (a filter must move towards the reference).
    func psnr(of settings: FilterSettings, catalog: FilterCatalog) throws -> (filtered: Double, unfiltered: Double) {
        let frame = frame()
        catalog.makeFilter(settings).apply(to: frame)
        let actual = frame.y.bytes + frame.u.bytes + frame.v.bytes
        try #require(actual.count == expected.count)
        return (MediaKitTests.psnr(actual, expected), MediaKitTests.psnr(source, expected))
    }

    /// A frame holding `source`.
    func frame() -> Frame {
        let frame = Frame(width: width, height: height)
        var offset = 0
        for plane in frame.planes {
            for y in 0..<plane.height {
                plane.row(y).update(from: Array(source[offset..<(offset + plane.width)]), count: plane.width)
                offset += plane.width
            }
        }
        precondition(offset == source.count, "ffmpeg's picture has an unexpected size")
        return frame
    }
}
