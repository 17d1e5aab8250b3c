import FilterKit
import Foundation
import MediaKit
import Testing

/// The key check: what the browser shows (our frame through JPEGEncoder) has the colours ffmpeg
/// gives the same frame, whatever range and matrix the clip uses.
@Suite("Colour accuracy against ffmpeg", .timeLimit(.minutes(3)))
struct ColorAccuracyTests {
    static let rate = 25
    static let index = 13

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let clip: ClipSpec
        /// Whether ffmpeg's reference goes through 4:2:0 8-bit first, like our frames. ffmpeg's
        /// high-bit-depth YUV → RGB path upsamples chroma differently from its 8-bit one (≈ 30 dB
        /// apart on testsrc2), which would hide what this test measures.
        var referenceVia420 = false
        var testDescription: String { label }
    }

    static func h264(_ name: String, _ extra: [String]) -> ClipSpec {
        ClipSpec(name, width: 320, height: 240, rate: rate, frameCount: 20, codec: ["-c:v", "libx264"] + extra)
    }

    static let cases: [Case] = [
        Case(label: "(a) untagged limited-range H.264 (BT.601)",
             clip: h264("colour-untagged.mp4", ["-pix_fmt", "yuv420p"])),
        Case(label: "(b) BT.709-tagged limited-range H.264",
             clip: h264("colour-bt709.mp4", [
                "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-pix_fmt", "yuv420p",
                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
             ])),
        Case(label: "(c) full-range H.264 (yuvj420p, BT.601)",
             clip: h264("colour-fullrange.mp4", ["-pix_fmt", "yuvj420p"])),
        Case(label: "(d) BT.709-tagged 10-bit H.264 (converted by swscale first)",
             clip: h264("colour-bt709-10bit.mkv", [
                "-vf", "scale=out_color_matrix=bt709:out_range=tv", "-pix_fmt", "yuv420p10le",
                "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
             ]),
             referenceVia420: true),
    ]

    @Test("frame through JPEG q90 matches ffmpeg's PNG of the same frame (PSNR ≥ 35 dB)", arguments: cases)
    func matchesReference(_ test: Case) throws {
        let path = try test.clip.make()
        let source = try #require(try InputSpec.file(path).open() as? any SeekableVideoSource)
        let frame = Frame(width: source.info.width, height: source.info.height)
        try source.seek(to: Double(Self.index) / Double(Self.rate), into: frame)
        #expect(abs(frame.time - Double(Self.index) / Double(Self.rate)) < 1e-6)

        let stem = (test.clip.name as NSString).deletingPathExtension
        let ours = try rgbThroughJPEG(frame, quality: 90, name: "\(stem)-ours.jpg")
        let pngPath = TestClips.path("\(stem)-ref.png")
        let select = "select=eq(n\\,\(Self.index))" + (test.referenceVia420 ? ",format=yuvj420p" : "")
        try TestClips.ffmpeg(["-i", path, "-vf", select, "-frames:v", "1",
                              "-fps_mode", "passthrough", pngPath])
        let reference = try TestClips.decodeToRGB(pngPath)
        try #require(ours.count == reference.count && ours.count == frame.width * frame.height * 3)
        let value = psnr(ours, reference)

        // Control: the same reference decoded with the other matrix, to show the check tells them apart.
        var controls: [String: Double] = [:]
        for matrix in ["bt601", "bt709"] {
            let interpreted = try TestClips.ffmpeg([
                "-i", path, "-vf", "\(select),scale=in_color_matrix=\(matrix)",
                "-frames:v", "1", "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
            ])
            controls[matrix] = psnr(ours, interpreted)
        }
        print("colour PSNR \(test.label): \(formatted(value)) dB against ffmpeg's PNG; "
            + "against ffmpeg forced to BT.601 \(formatted(controls["bt601", default: .nan])) dB, "
            + "to BT.709 \(formatted(controls["bt709", default: .nan])) dB")
        #expect(value >= 35, "\(test.label): PSNR \(formatted(value)) dB")
        let wrong = test.clip.name.contains("bt709") ? "bt601" : "bt709"
        #expect(controls[wrong, default: .infinity] < value - 3, "\(test.label): the wrong matrix should be clearly worse")
    }
}
