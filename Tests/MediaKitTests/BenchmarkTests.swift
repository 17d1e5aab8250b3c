import FilterKit
import Foundation
@testable import MediaKit
import Testing

/// `Benchmark` runs the real pipeline: sequential and pipelined runs must do the same work.
@Suite struct BenchmarkTests {
    static func clip() throws -> String {
        try TestClips.clip("bench-24.mp4", TestClips.lavfi(width: 176, height: 144, rate: 24, duration: 1)
            + ["-c:v", "libx264", "-g", "10", "-pix_fmt", "yuv420p"])
    }

    @Test(arguments: [1, 2, 3])
    func encodesEveryFrameOnce(threads: Int) throws {
        var benchmark = Benchmark(input: .file(try Self.clip()))
        benchmark.threads = threads
        benchmark.filter = FilterChain(try FilterSettings(name: "sepia"))
        let result = try benchmark.run()
        #expect(result.frames == 24)
        #expect(result.width == 176 && result.height == 144)
        #expect(result.fps > 0 && result.decodeMs > 0 && result.encodeMs > 0)

        benchmark.threads = 1
        let sequential = try benchmark.run()
        #expect(result.bytesPerFrame == sequential.bytesPerFrame, "same frames, same JPEGs")
    }

    @Test func appliesTheFilter() throws {
        var benchmark = Benchmark(input: .file(try Self.clip()))
        let plain = try benchmark.run()
        // Scale 100 (1080p pixels) is blocks of 13 on the 144-line clip.
        benchmark.filter = FilterChain(try FilterSettings(name: "pixellate", parameters: ["scale": 100]))
        let pixellated = try benchmark.run()
        #expect(pixellated.bytesPerFrame < plain.bytesPerFrame * 0.8, "flat blocks compress better")
    }

    /// Without a filter the frames change as the source does (ratio 1); pixellate's flat blocks
    /// change less from frame to frame than the moving pattern under them.
    @Test func measuresFlicker() throws {
        var benchmark = Benchmark(input: .file(try Self.clip()))
        benchmark.measuresFlicker = true
        let plain = try #require(try benchmark.run().flicker)
        #expect(plain.pairs == 23 && plain.source > 0.5 && plain.filtered == plain.source && plain.ratio == 1)
        benchmark.filter = FilterChain(try FilterSettings(name: "pixellate", parameters: ["scale": 100]))
        let blocks = try #require(try benchmark.run().flicker)
        #expect(blocks.source == plain.source && blocks.ratio < 1)
        benchmark.measuresFlicker = false
        #expect(try benchmark.run().flicker == nil)
    }

    /// The meter on frames made here: the mean absolute luma change of each pair, averaged.
    @Test func flickerMeterMeansTheLumaChange() {
        let meter = FlickerMeter()
        let frame = Frame(width: 8, height: 4)
        for (index, value) in [10, 14, 14, 4].enumerated() {
            for row in 0..<4 { frame.y.row(row).update(repeating: UInt8(value), count: 8) }
            frame.y.row(0)[0] = index == 3 ? 36 : UInt8(value) // the last frame: one sample of 32 at 36, not 4
            meter.measure(frame)
        }
        #expect(meter.pairs == 3)
        #expect(abs(meter.meanDifference - (4 + 0 + (31.0 * 10 + 22) / 32) / 3) < 1e-9)
    }

    /// The comparison against a reference run: PSNR and SSIM of each pair, in the order kept.
    @Test func lumaComparisonMeasuresEachPairInOrder() {
        let comparison = LumaComparison()
        let frame = Frame(width: 16, height: 16)
        for value in [100, 120, 50] {
            frame.y.fill(UInt8(value))
            comparison.keep(frame.y)
        }
        for value in [100, 130, 50, 7] {  // the same, 10 apart, the same, and one the first run never kept
            frame.y.fill(UInt8(value))
            comparison.compare(frame.y)
        }
        let result = comparison.result!
        #expect(result.pairs == 3 && result.psnr == 100)
        #expect(abs(result.worstPSNR - 10 * log10(255.0 * 255 / 100)) < 1e-9)  // 28.13 dB
        // Flat planes 10 apart: only SSIM's luminance term is below 1.
        let c1 = 0.01 * 255 * 0.01 * 255, kept = [UInt8](repeating: 120, count: 16 * 16)
        frame.y.fill(130)
        let ssim = kept.withUnsafeBufferPointer { LumaComparison.ssim($0, frame.y) }
        #expect(abs(ssim - (2 * 120 * 130 + c1) / (120 * 120 + 130 * 130 + c1)) < 1e-9)
        #expect(result.ssim == 1, "the median of 1, 1 and the pair 10 apart")
    }

    /// Paced, a benchmark takes as long as the frames last at the source's rate.
    @Test func pacedFramesComeAtTheSourcesRate() throws {
        var benchmark = Benchmark(input: .file(try Self.clip()))  // 24 frames at 24 fps
        benchmark.paced = true
        #expect(try benchmark.run().seconds >= 23.0 / 24)
    }

    @Test func stopsAtTheFrameLimitAndNeedsOneForLiveSources() throws {
        var benchmark = Benchmark(input: .testPattern(width: 64, height: 48, rate: 30))
        #expect(throws: MediaError.self) { try benchmark.run() }
        benchmark.frameLimit = 7
        benchmark.threads = 2
        #expect(try benchmark.run().frames == 7)
    }

    @Test func convertingADecodedPictureElsewhereGivesTheSameFrame() throws {
        let direct = try InputSpec.file(try Self.clip()).open()
        let split = try InputSpec.file(try Self.clip()).open()
        let converter = FrameConverter(width: split.info.width, height: split.info.height)
        let expected = Frame(width: direct.info.width, height: direct.info.height)
        let actual = Frame(width: split.info.width, height: split.info.height)
        let picture = DecodedPicture()
        for index in 0..<5 {
            #expect(try direct.read(into: expected))
            #expect(try split.read(into: picture))
            converter.convert(picture, into: actual)
            picture.release()
            #expect(actual.sequence == index && expected.sequence == index)
            #expect(actual.time == expected.time)
            for plane in 0..<3 {
                let a = actual.planes[plane], e = expected.planes[plane]
                for row in 0..<a.height {
                    #expect(Array(UnsafeBufferPointer(start: a.row(row), count: a.width))
                        == Array(UnsafeBufferPointer(start: e.row(row), count: e.width)))
                }
            }
        }
    }
}
