import CastServer
import Foundation
import Testing

/// Replays the path fuzzer's seed corpus and every input it ever crashed on
/// (Tests/Fuzz/corpus/static-paths, Tests/Fuzz/regressions/static-paths) through `normalize`.
@Suite("Fuzz corpus: static paths")
struct StaticPathCorpusTests {
    static let inputs: [URL] = ["corpus/static-paths", "regressions/static-paths"].flatMap { folder in
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/\(folder)")
        return (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
    }

    @Test("Every path normalises to clean components or is refused", arguments: inputs)
    func replay(input: URL) throws {
        let path = String(decoding: try Data(contentsOf: input), as: UTF8.self)
        guard let relative = StaticFiles.normalize(path) else { return }
        for component in relative.split(separator: "/", omittingEmptySubsequences: false) {
            #expect(!component.isEmpty && component != ".." && !component.hasPrefix("."), "\(path.debugDescription) → \(relative)")
        }
    }
}
