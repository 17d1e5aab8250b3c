import FilterKit
import Foundation
import MatteKit
import MediaKit
import StyleKit

/// `filtercast bench`: decode → filter → encode as fast as possible, with per-stage timings.
enum BenchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "bench",
        summary: "Decode, filter and JPEG-encode as fast as possible (at the source's rate with --against-per-frame) and report the speed of each stage.",
        usage: "filtercast bench [--input SRC] [--filter NAME [--param K=V …] …] [--luts DIR] [--styles DIR] [--frames N] [--threads N] [--quality Q] [--flicker] [--against-per-frame] [--style-lines N] [--style-network int8|float32] [--json]",
        options: [inputOption] + FilterOptions.specs + [LUTOptions.spec, StyleOptions.spec,
            OptionSpec(name: "--frames", valueName: "N", help: "Stop after N frames (default: the whole file; 300 for live sources)."),
            OptionSpec(name: "--threads", valueName: "N", help: "1: stages in turn on one thread (default); 2+: decode on its own thread, decoder and filter bands get N−1 threads."),
            OptionSpec(name: "--quality", valueName: "Q", help: "JPEG quality 1…100 (default 80)."),
            OptionSpec(name: "--flicker", valueName: nil, help: "Also measure the mean luma change of consecutive frames before and after the filter, and their ratio (a filter that flickers: over 1)."),
            OptionSpec(name: "--against-per-frame", valueName: nil, help: "Play the frames at the source's rate, as serve does (the style follows the picture with the lag it has there), then run them again with every frame waiting for its own stylization, and report the luma PSNR and SSIM of the first run's frames against the second's (medians)."),
            OptionSpec(name: "--style-lines", valueName: "N", help: "The style network's height, a multiple of 4 (default: calibrated at start, as serve does)."),
            OptionSpec(name: "--style-network", valueName: "int8|float32", help: "The network the shipped styles are painted with: int8 (default, as serve does) or the float32 one it was quantized from, to compare."),
            OptionSpec(name: "--json", valueName: nil, help: "Print the result as one JSON object."),
        ])

    static func run(_ options: ParsedOptions) throws {
        let engines = Engines(styleNetwork: try styleNetwork(options))
        // The style network's worker may still paint the last frame: not under exit's teardown.
        defer { engines.stop(within: .seconds(5)) }
        let input = try parseInput(options)
        var benchmark = Benchmark(input: input)
        benchmark.catalog = try StyleOptions.catalog(options, engines: engines)
        benchmark.filter = try FilterOptions.chain(from: options, catalog: benchmark.catalog)
        benchmark.frameLimit = try options.int("--frames", in: 1...10_000_000) ?? (input.isLive ? 300 : nil)
        benchmark.threads = try options.int("--threads", in: 1...64) ?? 1
        benchmark.quality = try options.int("--quality", in: 1...100) ?? 80
        benchmark.measuresFlicker = options.has("--flicker")
        let comparison = options.has("--against-per-frame") ? LumaComparison() : nil
        if let comparison {
            benchmark.paced = true
            benchmark.inspect = { comparison.keep($0.y) }
        }
        // Calibrated before, so that the first frame's time is the filter's.
        let lines = try options.int("--style-lines", in: 4...2160)
        if let lines, lines % 4 != 0 { throw UsageError(description: "--style-lines: \(lines) is not a multiple of 4") }
        let styleEngine = benchmark.filter.links.contains { $0.name == StyleFilter.descriptor.name }
            ? try? engines.style.get() : nil
        let networkHeight = styleEngine?.prepare(lines: lines)
        let runsBefore = styleEngine?.runCount ?? 0
        let matteBefore = warmMatte(engines.matte, for: benchmark.filter)
        let result = try benchmark.run(warning: { printWarning($0) })
        let matte = (try? engines.matte.get())?.averageCosts?.since(matteBefore)
        let closeness = try comparison.flatMap { try perFrame(benchmark, options, lines: networkHeight, into: $0) }
        let report = BenchReport(result: result, matte: matte, perFrame: closeness)
        if options.has("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
            return
        }
        report.print()
        // The style network's own time in the same run, to set the filter's cost against.
        // Beside the picture the frames do not wait for it: how often it refreshed the style.
        if let styleEngine, let run = styleEngine.averageRun, let networkHeight {
            let refresh = Double(styleEngine.runCount - runsBefore) / result.seconds
            print("network  \(fixed(run.seconds * 1000, 2)) ms/run at \(networkHeight) lines; style refreshed \(fixed(refresh, 1)) times a second")
        }
    }

    /// `--against-per-frame`: the same frames through the same chain with every frame waiting for
    /// its own stylization (a second engine, the network at `lines`), as fast as it goes, each
    /// filtered frame compared with the one `benchmark` kept in `comparison`.
    private static func perFrame(_ benchmark: Benchmark, _ options: ParsedOptions, lines: Int?,
                                 into comparison: LumaComparison) throws -> LumaComparison.Result? {
        let engines = Engines(styleNetwork: try styleNetwork(options), stylePerFrame: true)
        defer { engines.stop(within: .seconds(5)) }
        var reference = benchmark
        reference.paced = false
        reference.measuresFlicker = false
        reference.catalog = try StyleOptions.catalog(options, engines: engines)
        reference.filter = try FilterOptions.chain(from: options, catalog: reference.catalog)
        reference.inspect = { comparison.compare($0.y) }
        _ = (try? engines.style.get())?.prepare(lines: lines)
        _ = try reference.run(warning: { printWarning($0) })
        return comparison.result
    }

    /// `--style-network`: the network the shipped styles are painted with; nil without the option
    /// (then `FILTERCAST_STYLE_NETWORK` chooses, as it does for `serve`).
    private static func styleNetwork(_ options: ParsedOptions) throws -> StyleEngine.ShippedNetwork? {
        try options.string("--style-network").map { name in
            guard let network = StyleEngine.ShippedNetwork(rawValue: name) else {
                throw UsageError(description: "--style-network: '\(name)' is neither int8 nor float32")
            }
            return network
        }
    }
}

/// Loads the person matte's runtime and compiles both its networks when a link of `chain` needs
/// a matte from `engine`, so that the first frame's time is the filters' (as the style network is
/// prepared); the costs made so far, for ``MatteCosts/since(_:)``.
private func warmMatte(_ engine: Result<MatteEngine, StyleUnavailable>, for chain: FilterChain) -> MatteCosts? {
    let matteFilters = ["matte", "backgroundBlur", "backgroundReplace"]
    guard case .success(let engine) = engine,
          chain.links.contains(where: { $0.region != .all || matteFilters.contains($0.name) }) else { return nil }
    for (width, height) in [(256, 144), (256, 256)] { _ = engine.matte(of: Frame(width: width, height: height)) }
    return engine.averageCosts
}

/// `bench`'s figures: the run's, where a link made a person matte its steps' mean milliseconds per
/// frame (`matteMs`: all three; `matteReduceMs`, `matteNetworkMs`, `matteUpsampleMs`: the frame
/// reduced for the network, its run, the guided upsampling), and with `--against-per-frame` how
/// close the paced frames came to every frame's own stylization (`perFramePSNR`,
/// `perFrameWorstPSNR`, `perFrameSSIM`, `perFramePairs`). One JSON object with `--json`.
private struct BenchReport: Encodable {
    let result: Benchmark.Result
    let matte: MatteCosts?
    let perFrame: LumaComparison.Result?

    private enum Key: String, CodingKey {
        case matteMs, matteReduceMs, matteNetworkMs, matteUpsampleMs, matteFrames
        case perFramePSNR, perFrameWorstPSNR, perFrameSSIM, perFramePairs
    }

    func encode(to encoder: any Encoder) throws {
        try result.encode(to: encoder)
        var container = encoder.container(keyedBy: Key.self)
        if let matte {
            let ms = { (duration: Duration) in duration.seconds * 1000 }
            try container.encode(ms(matte.prepare + matte.network + matte.refine), forKey: .matteMs)
            try container.encode(ms(matte.prepare), forKey: .matteReduceMs)
            try container.encode(ms(matte.network), forKey: .matteNetworkMs)
            try container.encode(ms(matte.refine), forKey: .matteUpsampleMs)
            try container.encode(matte.frames, forKey: .matteFrames)
        }
        if let perFrame {
            try container.encode(perFrame.psnr, forKey: .perFramePSNR)
            try container.encode(perFrame.worstPSNR, forKey: .perFrameWorstPSNR)
            try container.encode(perFrame.ssim, forKey: .perFrameSSIM)
            try container.encode(perFrame.pairs, forKey: .perFramePairs)
        }
    }

    /// The figures as lines of text.
    func print() {
        let rows: [(String, String)] = [
            ("input", "\(result.input) (\(result.width)x\(result.height))"),
            ("filter", result.filter),
            ("threads", String(result.threads)),
            ("frames", "\(result.frames) in \(fixed(result.seconds, 2)) s"),
            ("fps", fixed(result.fps, 1)),
            ("decode", "\(fixed(result.decodeMs, 2)) ms/frame"),
            ("filter", "\(fixed(result.filterMs, 2)) ms/frame"),
            ("encode", "\(fixed(result.encodeMs, 2)) ms/frame"),
            ("jpeg", "\(Int(result.bytesPerFrame.rounded())) bytes/frame"),
        ]
        let flicker = result.flicker.map { [("flicker", "source \(fixed($0.source, 3)), filtered \(fixed($0.filtered, 3)), "
                                                  + "ratio \(fixed($0.ratio, 3)) (\($0.pairs) pairs)")] } ?? []
        let perFrame = perFrame.map { [("compared", "PSNR \(fixed($0.psnr, 2)) dB (worst \(fixed($0.worstPSNR, 2))), "
            + "SSIM \(fixed($0.ssim, 4)): medians of \($0.pairs) frames against each one's own stylization")] } ?? []
        for (label, value) in rows + flicker + perFrame { Swift.print(label.padding(toLength: 9, withPad: " ", startingAt: 0) + value) }
        // The person matte's own steps, once per frame however many links use it.
        if let matte {
            let ms = { (duration: Duration) in fixed(duration.seconds * 1000, 2) }
            Swift.print("matte    \(ms(matte.prepare + matte.network + matte.refine)) ms/frame: reduce \(ms(matte.prepare)), "
                        + "network \(ms(matte.network)), guided upsampling \(ms(matte.refine)) (\(matte.frames) frames)")
        }
    }
}

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}
