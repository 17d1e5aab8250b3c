import FilterKit
import Foundation
import Testing

/// `edges` against FFmpeg's `edgedetect` and `vignette` against FFmpeg's `vignette`, run by the
/// `ffmpeg` CLI on the same full-range 4:2:0 bytes (see ``FilterReference``). Neither pair
/// computes the same thing, so each test compares what the two should agree on and says why
/// its bound is what it is.
@Suite("Edges and vignette against FFmpeg")
struct StylizeReferenceTests {
    static let width = 320, height = 240

    /// Whether `map` holds a true within `reach` pixels (Chebyshev distance) of (`x`, `y`).
    static func near(_ map: [Bool], _ x: Int, _ y: Int, reach: Int) -> Bool {
        for ny in max(y - reach, 0)...min(y + reach, height - 1) {
            for nx in max(x - reach, 0)...min(x + reach, width - 1) where map[ny * width + nx] { return true }
        }
        return false
    }

    /// `edgedetect` is Canny: Gaussian smoothing, Sobel, non-maximum suppression (edges one pixel
    /// thin) and hysteresis between 20/255 and 50/255. Its `wires` output keeps the gradient on edge
    /// pixels and is black elsewhere (16 once FFmpeg converts its grey back to yuv420p). Ours is the
    /// Sobel magnitude, two pixels wide across a step and never thresholded. So the comparison is of
    /// where the edges are, both ways:
    /// - every edge FFmpeg finds is one of ours: ≥ 98% of its edge pixels (luma ≥ 32) have one of
    ///   ours of at least 20 (Canny's low threshold, in our units of step height) within 1 pixel
    ///   (measured 99.9%; 96.6% at a threshold of 32, so the bound is not loose);
    /// - every strong edge of ours (≥ 64, a quarter of a full step) is one of FFmpeg's: ≥ 98% have
    ///   one of its edge pixels within 2 pixels (measured 99.9%), except on the borders of
    ///   testsrc2's colour bars. Those are full-height steps exactly between two columns: Sobel is
    ///   equally strong on both sides, and FFmpeg's non-maximum suppression, which keeps only a
    ///   strict maximum across the edge, drops both (its output has no bar borders at all).
    @Test("edges finds the edges ffmpeg edgedetect (Canny) finds, and its strong edges are Canny's")
    func edgedetect() throws {
        let ffmpeg = try FilterReference(width: Self.width, height: Self.height, ffmpegFilter: "edgedetect")
        let frame = ffmpeg.frame()
        FilterCatalog.standard.makeFilter(try FilterSettings(name: "edges")).apply(to: frame)
        let count = Self.width * Self.height, ours = frame.y.bytes, source = Array(ffmpeg.source[..<count])
        let theirEdges = ffmpeg.expected[..<count].map { $0 >= 32 }
        let ourEdges = ours.map { $0 >= 20 }, ourStrongEdges = ours.map { $0 >= 64 }
        // Full-height grid-aligned steps in the input: columns x − 1 and x where the luma jumps by
        // at least 20 between them on three rows in four (the clock overlay covers the top left).
        var alignedStep = [Bool](repeating: false, count: Self.width)
        for x in 1..<Self.width {
            let rows = (0..<Self.height).filter { abs(Int(source[$0 * Self.width + x]) - Int(source[$0 * Self.width + x - 1])) >= 20 }
            if rows.count * 4 >= Self.height * 3 { alignedStep[x - 1] = true; alignedStep[x] = true }
        }
        var theirs = 0, found = 0, strong = 0, confirmed = 0
        for y in 0..<Self.height {
            for x in 0..<Self.width {
                let i = y * Self.width + x
                if theirEdges[i] {
                    theirs += 1
                    if Self.near(ourEdges, x, y, reach: 1) { found += 1 }
                }
                if ourStrongEdges[i] && !alignedStep[x] {
                    strong += 1
                    if Self.near(theirEdges, x, y, reach: 2) { confirmed += 1 }
                }
            }
        }
        let recall = Double(found) / Double(theirs), precision = Double(confirmed) / Double(strong)
        print("edges vs edgedetect: \(theirs) Canny edge pixels, \(formatted(100 * recall))% found; \(strong) strong edge pixels "
              + "of ours off the bar borders, \(formatted(100 * precision))% confirmed; bar-border columns "
              + "\(alignedStep.indices.filter { alignedStep[$0] })")
        // Enough edges on both sides for the fractions to mean something, and the bar borders really are ours.
        #expect(theirs > 1000 && strong > 1000)
        #expect(alignedStep.filter { $0 }.count == 10, "testsrc2 has five bar borders")
        #expect(recall >= 0.98, "\(formatted(100 * recall))% of edgedetect's edge pixels found")
        #expect(precision >= 0.98, "\(formatted(100 * precision))% of our strong edges confirmed")
    }

    struct VignetteCase: Sendable, CustomStringConvertible {
        /// FFmpeg's lens angle: gain cos⁴(angle × d / D), d the distance from the centre, D half the diagonal.
        let angle: Double
        /// Ours, fitted to that curve: gain 1 − intensity × smoothstep(d / (radius × D)).
        let intensity: Double
        let radius: Double
        /// Highest difference accepted, in levels, and lowest PSNR over all three planes.
        let maxDifference: Int
        let minPSNR: Double
        var description: String { "angle \(formatted(angle)) vs intensity \(intensity), radius \(radius)" }

        /// The largest gap between the two gain curves over the frame (d/D from 0 to 1).
        var gainGap: Double {
            (0...1000).map { step -> Double in
                let t = Double(step) / 1000, s = min(t / radius, 1)
                return abs(pow(cos(angle * t), 4) - (1 - intensity * s * s * (3 - 2 * s)))
            }.max()!
        }
    }

    /// The intensity and radius of each case are the least-maximum-error fit of our smoothstep
    /// falloff to FFmpeg's cos⁴ one: the curves then differ in gain by `gainGap` at most (0.0034
    /// at FFmpeg's default angle π/5, 0.0083 at π/8), which is 0.9 and 2.1 levels on a sample of
    /// 255. On top come the two sides' rounding (½ level each) and where they measure the distance
    /// from: FFmpeg from whole-pixel offsets (truncated), on the top-left luma pixel of a chroma
    /// sample, around 127 for chroma; ours from pixel centres, around 128 — up to one more
    /// level. Hence `maxDifference` = ⌈255 × gainGap⌉ + 2. Dithering is off in FFmpeg.
    static let vignetteCases = [
        VignetteCase(angle: Double.pi / 5, intensity: 0.995, radius: 1.82, maxDifference: 3, minPSNR: 45),
        VignetteCase(angle: Double.pi / 8, intensity: 0.515, radius: 1.97, maxDifference: 5, minPSNR: 45),
    ]

    @Test("vignette fitted to ffmpeg vignette's cos⁴ falloff agrees within its gain gap", arguments: vignetteCases)
    func vignette(_ reference: VignetteCase) throws {
        #expect(Int((255 * reference.gainGap).rounded(.up)) + 2 <= reference.maxDifference)
        let ffmpeg = try FilterReference(width: Self.width, height: Self.height,
                                         ffmpegFilter: "vignette=angle=\(reference.angle):dither=0")
        let frame = ffmpeg.frame()
        let settings = try FilterSettings(name: "vignette", parameters: ["intensity": reference.intensity,
                                                                          "radius": reference.radius])
        FilterCatalog.standard.makeFilter(settings).apply(to: frame)
        let ours = frame.y.bytes + frame.u.bytes + frame.v.bytes
        try #require(ours.count == ffmpeg.expected.count)
        let largest = zip(ours, ffmpeg.expected).map { abs(Int($0) - Int($1)) }.max()!
        let value = psnr(ours, ffmpeg.expected), unchanged = psnr(ffmpeg.source, ffmpeg.expected)
        print("vignette \(reference): PSNR \(formatted(value)) dB, largest difference \(largest) "
              + "(gain gap \(String(format: "%.4f", reference.gainGap)); input vs reference \(formatted(unchanged)) dB)")
        #expect(largest <= reference.maxDifference)
        #expect(value >= reference.minPSNR, "\(formatted(value)) dB")
        #expect(value > unchanged + 15, "the filter must move towards the reference")
    }
}
