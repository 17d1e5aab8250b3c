import FilterKit
import Foundation
import Testing

/// pixellate against FFmpeg's `pixelize` (mode avg) and sepia against `colorchannelmixer` with
/// the classic sepia matrix, run by the `ffmpeg` CLI on the same 320x240 picture (see
/// ``FilterReference``).
///
/// pixellate's scale is in 1080p pixels: at 240 lines, scale 18, 36 and 72 are blocks of 4, 8
/// and 16, and `pixelize` halves the block on the half-resolution chroma planes as we do.
///
/// Sepia at intensity 1 is the full matrix. Intensity i blends the original with the (clipped)
/// full sepia, `(1 − i)·RGB + i·sepia(RGB)`, which is the matrix `(1 − i)·I + i·M` wherever no
/// channel clips. `colorchannelmixer` works on RGB, so ffmpeg converts the full-range samples
/// (declared `yuvj420p`) to RGB and back, resampling chroma on the way; we map YUV directly, with
/// luma following the sepia curve and chroma taken from the 2×2 block's luma.
@Suite("Pixellate and sepia against FFmpeg")
struct PixellateSepiaReferenceTests {
    static let catalog = FilterCatalog([.init(PixellateFilter.self), .init(SepiaFilter.self)])

    struct Case: Sendable, CustomStringConvertible {
        let filter: String
        let parameters: [String: Double]
        let ffmpeg: String
        var pixelFormat = "yuv420p"
        /// Lowest PSNR (dB) over all three planes accepted.
        let minPSNR: Double
        var description: String { "\(filter) \(parameters.sorted { $0.key < $1.key }) vs \(ffmpeg)" }
    }

    /// `colorchannelmixer` options for `(1 − intensity)·I + intensity·sepia`.
    static func sepiaMixer(intensity i: Double) -> String {
        let sepia = [[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]]
        let rows = (0..<3).map { r in (0..<3).map { c in i * sepia[r][c] + (r == c ? 1 - i : 0) } }
        return "colorchannelmixer=" + rows.map { $0.map { String(format: "%.4f", $0) }.joined(separator: ":") }
            .joined(separator: ":0:")
    }

    // Measured (dB): pixelize 4, 8, 16: 59.3, 57.2, 55.2 (the means round differently); sepia at
    // intensity 1 and 0.5: 36.1 and 41.7 (ffmpeg's chroma resampling on the way to RGB and back).
    static let cases = [
        Case(filter: "pixellate", parameters: ["scale": 18], ffmpeg: "pixelize=w=4:h=4:m=avg", minPSNR: 58),
        Case(filter: "pixellate", parameters: ["scale": 36], ffmpeg: "pixelize=w=8:h=8:m=avg", minPSNR: 56),
        Case(filter: "pixellate", parameters: ["scale": 72], ffmpeg: "pixelize=w=16:h=16:m=avg", minPSNR: 54),
        Case(filter: "sepia", parameters: ["intensity": 1], ffmpeg: sepiaMixer(intensity: 1), pixelFormat: "yuvj420p",
             minPSNR: 35),
        Case(filter: "sepia", parameters: ["intensity": 0.5], ffmpeg: sepiaMixer(intensity: 0.5), pixelFormat: "yuvj420p",
             minPSNR: 40.5),
    ]

    @Test("PSNR against the FFmpeg filter", arguments: cases)
    func reference(_ reference: Case) throws {
        let ffmpeg = try FilterReference(width: 320, height: 240, ffmpegFilter: reference.ffmpeg,
                                         pixelFormat: reference.pixelFormat)
        let settings = try FilterSettings(name: reference.filter, parameters: reference.parameters, catalog: Self.catalog)
        let (value, unchanged) = try ffmpeg.psnr(of: settings, catalog: Self.catalog)
        print("\(reference): PSNR \(formatted(value)) dB (input vs reference \(formatted(unchanged)) dB)")
        #expect(value >= reference.minPSNR, "\(reference): \(formatted(value)) dB")
        // The filter must actually move towards the reference.
        #expect(value > unchanged + 8)
    }

    @Test("The full sepia matrix is what colorchannelmixer is given at intensity 1")
    func fullMatrix() {
        #expect(Self.sepiaMixer(intensity: 1)
            == "colorchannelmixer=0.3930:0.7690:0.1890:0:0.3490:0.6860:0.1680:0:0.2720:0.5340:0.1310")
    }
}
