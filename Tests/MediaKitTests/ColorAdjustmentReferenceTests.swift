import FilterKit
import Foundation
import Testing

/// The colour adjustments against the FFmpeg filters they correspond to, run by the `ffmpeg`
/// CLI on the same bytes: `eq` (brightness, contrast, saturation, gamma) and `hue`.
///
/// Both sides see the same full-range 4:2:0 samples: the reference input and output are declared
/// `yuv420p` so that ffmpeg converts nothing (`eq` and `hue` work on the sample values alone).
@Suite("Color adjustments against FFmpeg")
struct ColorAdjustmentReferenceTests {
    static let catalog = FilterCatalog([
        .init(ColorControlsFilter.self), .init(HueAdjustFilter.self), .init(GammaFilter.self),
    ])
    static let width = 320, height = 240

    struct Case: Sendable, CustomStringConvertible {
        let filter: String
        let parameters: [String: Double]
        let ffmpeg: String
        /// Lowest PSNR (dB) over all three planes accepted.
        let minPSNR: Double
        var description: String { "\(filter) \(parameters.sorted { $0.key < $1.key }) vs \(ffmpeg)" }
    }

    static let cases = [
        // eq adds brightness after contrast, Core Image before: compared separately. eq's
        // brightness offset is `(int)(100·b + 100)·511/200 − 256` (−78 at −0.3 where we add
        // −76.5), hence the lower bound.
        // The other colour controls are set to their identity (their defaults change the picture).
        Case(filter: "colorControls", parameters: ["brightness": 0.2, "saturation": 1, "contrast": 1], ffmpeg: "eq=brightness=0.2", minPSNR: 38),
        Case(filter: "colorControls", parameters: ["brightness": -0.3, "saturation": 1, "contrast": 1], ffmpeg: "eq=brightness=-0.3", minPSNR: 38),
        Case(filter: "colorControls", parameters: ["contrast": 1.5, "saturation": 1, "brightness": 0], ffmpeg: "eq=contrast=1.5", minPSNR: 45),
        Case(filter: "colorControls", parameters: ["contrast": 0.5, "saturation": 1, "brightness": 0], ffmpeg: "eq=contrast=0.5", minPSNR: 45),
        Case(filter: "colorControls", parameters: ["saturation": 1.7, "brightness": 0, "contrast": 1], ffmpeg: "eq=saturation=1.7", minPSNR: 45),
        Case(filter: "colorControls", parameters: ["saturation": 0.3, "brightness": 0, "contrast": 1], ffmpeg: "eq=saturation=0.3", minPSNR: 45),
        Case(filter: "gamma", parameters: ["power": 2], ffmpeg: "eq=gamma=0.5", minPSNR: 45),
        Case(filter: "gamma", parameters: ["power": 0.6], ffmpeg: "eq=gamma=\(1 / 0.6)", minPSNR: 45),
        Case(filter: "hueAdjust", parameters: ["angle": 1], ffmpeg: "hue=H=1", minPSNR: 45),
        Case(filter: "hueAdjust", parameters: ["angle": -2.5], ffmpeg: "hue=H=-2.5", minPSNR: 45),
    ]



    @Test("PSNR against the FFmpeg filter", arguments: cases)
    func reference(_ reference: Case) throws {
        let ffmpeg = try FilterReference(width: Self.width, height: Self.height, ffmpegFilter: reference.ffmpeg)
        let frame = ffmpeg.frame(), bytes = ffmpeg.source, expected = ffmpeg.expected
        let settings = try FilterSettings(name: reference.filter, parameters: reference.parameters, catalog: Self.catalog)
        Self.catalog.makeFilter(settings).apply(to: frame)
        let actual = frame.y.bytes + frame.u.bytes + frame.v.bytes
        try #require(actual.count == expected.count)
        let value = psnr(actual, expected)
        let unchanged = psnr(bytes, expected)
        print("\(reference): PSNR \(formatted(value)) dB (input vs reference \(formatted(unchanged)) dB)")
        #expect(value >= reference.minPSNR, "\(reference): \(formatted(value)) dB")
        // The filter must actually move towards the reference.
        #expect(value > unchanged + 10)
    }
}
