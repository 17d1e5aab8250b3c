import Foundation

/// The inputs a libFuzzer target of Tests/Fuzz is replayed on: its seed corpus and every input it
/// ever crashed on (Tests/Fuzz/corpus/TARGET, Tests/Fuzz/regressions/TARGET).
enum FuzzInputs {
    static func files(of target: String) -> [URL] {
        ["corpus", "regressions"].flatMap { folder in
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fuzz/\(folder)/\(target)")
            return (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
        }
    }
}
