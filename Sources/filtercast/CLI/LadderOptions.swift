import CastServer
import Foundation

/// `--jpeg-ladder` and `--h264-ladder`: the renditions viewers can be given, when not the
/// standard ladder for the source's size.
enum LadderOptions {
    static let specs = [
        OptionSpec(name: "--jpeg-ladder", valueName: "HEIGHTS",
                   help: "Heights of the JPEG renditions, e.g. 720,360,180 (default: full, half and quarter size)."),
        OptionSpec(name: "--h264-ladder", valueName: "RUNGS",
                   help: "H.264 renditions for the page, HEIGHT[@BITS], e.g. 720@2.5M,360@900k, or off (default: full and half size, caps from the size)."),
    ]

    /// Sets the rungs the options give; a side not given keeps the standard rungs for the source.
    static func apply(_ options: ParsedOptions, to configuration: inout ServerConfiguration) throws {
        configuration.jpegLadder = try options.string("--jpeg-ladder").map { try heights($0, source: options.source("--jpeg-ladder")) }
        configuration.h264Ladder = try options.string("--h264-ladder").map { try videoRungs($0, source: options.source("--h264-ladder")) }
    }

    /// `720,360,180` → heights, largest first, each once.
    static func heights(_ text: String, source: String) throws -> [Int] {
        let parsed = text.split(separator: ",", omittingEmptySubsequences: false).map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0.map { (16...4320).contains($0) } ?? false }) else {
            throw UsageError(description: "\(source) must be heights in 16…4320 separated by commas, such as 720,360,180, got '\(text)'")
        }
        return Array(Set(parsed.compactMap { $0 })).sorted(by: >)
    }

    /// `720@2.5M,360` → rungs, largest first; `off` → none.
    static func videoRungs(_ text: String, source: String) throws -> [Ladder.VideoRung] {
        if text == "off" { return [] }
        let problem = "\(source) must be HEIGHT[@BITS] rungs separated by commas (height 16…4320, bits 100k…100M a second), "
            + "such as 720@2.5M,360@900k, or off; got '\(text)'"
        var rungs: [Ladder.VideoRung] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "@", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let height = Int(parts[0]), (16...4320).contains(height) else {
                throw UsageError(description: problem)
            }
            let bits = try parts.dropFirst().first.map { part -> Int in
                guard let bits = try? ServeCommand.parseByteCount(String(part), source), (100_000...100_000_000).contains(bits) else {
                    throw UsageError(description: problem)
                }
                return Int(bits)
            }
            guard !rungs.contains(where: { $0.height == height }) else { throw UsageError(description: "\(source) names \(height) twice") }
            rungs.append(Ladder.VideoRung(height: height, bitsPerSecond: bits))
        }
        return rungs.sorted { $0.height > $1.height }
    }
}
