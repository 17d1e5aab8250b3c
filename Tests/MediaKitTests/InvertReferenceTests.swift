import FilterKit
import Foundation
import Testing

/// `invert` against FFmpeg's `negate`, generated at test time by the ffmpeg CLI. On full-range
/// YUV (`yuvj420p`, the frame format) `negate` is 255 − x on every plane, so the bound is
/// bit-exact (PSNR = ∞).
@Suite("Invert vs ffmpeg negate")
struct InvertReferenceTests {
    @Test("invert matches ffmpeg negate bit-exact", arguments: [(64, 36), (17, 11), (2, 2)])
    func matchesNegate(width: Int, height: Int) throws {
        let size = "\(width)x\(height)"
        let input = try TestClips.ffmpeg(TestClips.lavfi(width: 64, height: 36, rate: 1, duration: 1)
            + ["-frames:v", "1", "-vf", "scale=\(width):\(height),format=yuvj420p", "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"])
        let rawPath = TestClips.path("invert-input-\(size).yuv")
        try Data(input).write(to: URL(fileURLWithPath: rawPath))
        let reference = try TestClips.ffmpeg(["-f", "rawvideo", "-pix_fmt", "yuvj420p", "-s", size, "-i", rawPath,
                                              "-vf", "negate", "-f", "rawvideo", "-pix_fmt", "yuvj420p", "-"])

        let frame = Frame(width: width, height: height)
        let frameBytes = width * height + 2 * frame.u.width * frame.u.height
        try #require(input.count == frameBytes && reference.count == frameBytes)
        var offset = 0
        for plane in frame.planes {
            for row in 0..<plane.height {
                plane.row(row).update(from: Array(input[offset..<offset + plane.width]), count: plane.width)
                offset += plane.width
            }
        }
        let catalog = FilterCatalog([.init(InvertFilter.self)])
        catalog.makeFilter(try FilterSettings(name: "invert", catalog: catalog)).apply(to: frame)
        let output = frame.planes.flatMap(\.bytes)
        let quality = psnr(output, reference)
        #expect(quality == .infinity, "PSNR \(formatted(quality)) dB on \(size)")
    }
}
