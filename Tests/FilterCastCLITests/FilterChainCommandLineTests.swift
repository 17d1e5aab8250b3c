import Foundation
import Testing

/// Repeated `--filter NAME`, each followed by its own `--param`s, make a chain in `serve`,
/// `snapshot` and `bench`.
@Suite struct FilterChainCommandLineTests {
    /// (arguments, words the single error line must contain); all exit with 2.
    static let badChains: [([String], [String])] = [
        (["snapshot", "--param", "intensity=0.5", "--filter", "sepia", "-o", "x.jpg"],
         ["--param", "before any --filter"]),
        (["bench", "--param", "scale=4"], ["--param", "before any --filter"]),
        (["serve", "--param", "scale=4", "--filter", "pixellate"], ["--param", "before any --filter"]),
        (["snapshot", "-o", "x.jpg"] + Array(repeating: ["--filter", "invert"], count: 9).flatMap { $0 },
         ["at most 8", "got 9"]),
        (["snapshot", "--filter", "invert", "--filter", "nope", "-o", "x.jpg"], ["--filter 2 of 2 (nope)", "nope"]),
        (["snapshot", "--filter", "sepia", "--filter", "invert", "--param", "intensity=0.5", "-o", "x.jpg"],
         ["--filter 2 of 2 (invert)", "intensity"]),
        (["snapshot", "--filter", "invert", "--filter", "sepia", "--param", "intensity=5", "-o", "x.jpg"],
         ["--filter 2 of 2 (sepia)", "sepia.intensity", "0…1"]),
        (["bench", "--filter", "none", "--filter", "sepia"], ["'none'"]),
    ]

    @Test(arguments: badChains)
    func badChainsAreUsageErrors(_ arguments: [String], _ words: [String]) throws {
        let run = try CLI.run(arguments)
        #expect(run.status == 2, "\(arguments): \(run.errors)")
        #expect(run.errorLines.count == 1, "one line, got: \(run.errors)")
        for word in words {
            #expect(run.errors.contains(word), "\(arguments): '\(word)' missing from: \(run.errors)")
        }
    }

    /// The snapshot of `filters` (each a name and its parameters) at 0.4 s: the line it printed and the JPEG.
    static func snapshot(_ filters: [(String, [String])]) throws -> (line: String, jpeg: Data) {
        let output = CLI.temporaryPath("chain-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let chain = filters.flatMap { name, parameters in ["--filter", name] + parameters.flatMap { ["--param", $0] } }
        let run = try CLI.run(["snapshot", "--input", CLI.clip, "--at", "0.4", "-o", output] + chain)
        #expect(run.status == 0, "\(run.errors)")
        return (run.output, try Data(contentsOf: URL(fileURLWithPath: output)))
    }

    @Test func snapshotAppliesEachLinkWithItsOwnParametersInOrder() throws {
        let chained = try Self.snapshot([("sepia", ["intensity=0.3"]), ("pixellate", ["scale=8"])])
        #expect(chained.line.contains("sepia(intensity=0.3) → pixellate(scale=8)"), "\(chained.line)")

        let invertThenSepia = try Self.snapshot([("invert", []), ("sepia", [])])
        let sepiaThenInvert = try Self.snapshot([("sepia", []), ("invert", [])])
        let sepia = try Self.snapshot([("sepia", [])])
        #expect(invertThenSepia.line.contains("invert → sepia(intensity=1)"), "\(invertThenSepia.line)")
        #expect(invertThenSepia.jpeg != sepia.jpeg)
        #expect(invertThenSepia.jpeg != sepiaThenInvert.jpeg, "order matters")
        // A chain of one is the single filter.
        #expect(try Self.snapshot([("sepia", ["intensity=1"])]).jpeg == sepia.jpeg)
    }

    @Test func benchReportsTheChain() throws {
        let run = try CLI.run(["bench", "--input", "test:160x120@30", "--frames", "5", "--json",
                               "--filter", "invert", "--filter", "pixellate", "--param", "scale=4"])
        #expect(run.status == 0, "\(run.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(json["filter"] as? String == "invert → pixellate(scale=4)")
        #expect(json["frames"] as? Int == 5)
    }

    @Test func helpExplainsChains() throws {
        let run = try CLI.run(["snapshot", "--help"])
        #expect(run.output.contains("repeat to chain up to 8"))
        #expect(run.output.contains("--param K=V") && run.output.contains("of the --filter before it"))
    }
}
