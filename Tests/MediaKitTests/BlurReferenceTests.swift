import FilterKit
import Foundation
import Testing

/// The blurs against FFmpeg's `boxblur` and `gblur`, run by the `ffmpeg` CLI on the same
/// full-range 4:2:0 bytes (declared `yuv420p` in and out, so that ffmpeg converts nothing).
///
/// `gblur` has one sigma for every plane where ours halves it on the half-resolution chroma, so
/// only luma is compared for it. Both sides differ at the frame edges (clamping versus FFmpeg's
/// own edge handling) and in rounding, hence PSNR bounds rather than exact values. Our radii are
/// pixels of a 1080-line frame, so each case asks for the radius that is `pixels` at the test's
/// 240 lines.
@Suite("Blurs against FFmpeg")
struct BlurReferenceTests {
    static let catalog = FilterCatalog([.init(BoxBlurFilter.self), .init(GaussianBlurFilter.self)])
    static let width = 320, height = 240

    struct Case: Sendable, CustomStringConvertible {
        let filter: String
        /// The radius in pixels at the test frame's height.
        let pixels: Double
        let ffmpeg: String
        let lumaOnly: Bool
        /// Lowest PSNR (dB) accepted.
        let minPSNR: Double
        var description: String { "\(filter) radius \(pixels) px vs \(ffmpeg)" }
        /// The radius parameter: `pixels` converted to pixels of a 1080-line frame.
        var radius: Double { pixels * Frame.referenceHeight / Double(BlurReferenceTests.height) }
    }

    // Measured: boxBlur radius 2 is bit-exact (infinite PSNR), radius 6 45.6 dB; gaussianBlur
    // against gblur (6 IIR steps) 50.0 dB at sigma 2 and 48.9 dB at sigma 6.
    static let cases = [
        Case(filter: "boxBlur", pixels: 2, ffmpeg: "boxblur=luma_radius=2:luma_power=1:chroma_radius=1:chroma_power=1",
             lumaOnly: false, minPSNR: 40),
        Case(filter: "boxBlur", pixels: 6, ffmpeg: "boxblur=luma_radius=6:luma_power=1:chroma_radius=3:chroma_power=1",
             lumaOnly: false, minPSNR: 40),
        Case(filter: "gaussianBlur", pixels: 4, ffmpeg: "gblur=sigma=2:steps=6", lumaOnly: true, minPSNR: 44),
        Case(filter: "gaussianBlur", pixels: 12, ffmpeg: "gblur=sigma=6:steps=6", lumaOnly: true, minPSNR: 44),
    ]

    @Test("PSNR against the FFmpeg filter", arguments: cases)
    func reference(_ reference: Case) throws {
        let ffmpeg = try FilterReference(width: Self.width, height: Self.height, ffmpegFilter: reference.ffmpeg)
        let frame = ffmpeg.frame(), bytes = ffmpeg.source, expected = ffmpeg.expected
        let settings = try FilterSettings(name: reference.filter, parameters: ["radius": reference.radius],
                                          catalog: Self.catalog)
        Self.catalog.makeFilter(settings).apply(to: frame)
        var actual = frame.y.bytes + frame.u.bytes + frame.v.bytes
        try #require(actual.count == expected.count)
        var expectedCompared = expected, inputCompared = bytes
        if reference.lumaOnly {
            let luma = Self.width * Self.height
            actual = Array(actual[..<luma])
            expectedCompared = Array(expected[..<luma])
            inputCompared = Array(bytes[..<luma])
        }
        let value = psnr(actual, expectedCompared)
        let unchanged = psnr(inputCompared, expectedCompared)
        print("\(reference): PSNR \(formatted(value)) dB (input vs reference \(formatted(unchanged)) dB)")
        #expect(value >= reference.minPSNR, "\(reference): \(formatted(value)) dB")
        // The filter must actually move towards the reference.
        #expect(value > unchanged + 5)
    }
}
