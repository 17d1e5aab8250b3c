import FilterKit
import Foundation
import MediaKit
import Testing

@Suite("Bad input fails cleanly", .timeLimit(.minutes(3)))
struct BadInputTests {
    enum Kind: String, Sendable, CaseIterable, CustomTestStringConvertible {
        case missingFile = "missing file"
        case textFile = "text file"
        case textFileNamedMP4 = "text file named .mp4"
        case emptyFile = "zero-byte file"
        case truncatedMP4 = "first 30% of an mp4 (moov at the end)"
        case audioOnlyM4A = "audio-only .m4a"
        case audioOnlyWAV = "audio-only .wav"
        case directory = "a directory"

        var testDescription: String { rawValue }

        /// Makes the input and returns its path.
        func make() throws -> String {
            switch self {
            case .missingFile:
                return TestClips.path("no-such-file.mp4")
            case .textFile, .textFileNamedMP4:
                let path = TestClips.path(self == .textFile ? "notes.txt" : "notes-not-video.mp4")
                try "hello\nthis is not a video, just some text\n".write(toFile: path, atomically: true, encoding: .utf8)
                return path
            case .emptyFile:
                let path = TestClips.path("empty.mp4")
                try Data().write(to: URL(fileURLWithPath: path))
                return path
            case .truncatedMP4:
                let whole = try ClipSpec("h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"]).make()
                let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
                let path = TestClips.path("truncated.mp4")
                try bytes.prefix(bytes.count * 3 / 10).write(to: URL(fileURLWithPath: path))
                return path
            case .audioOnlyM4A:
                return try TestClips.clip("tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5", "-c:a", "aac"])
            case .audioOnlyWAV:
                return try TestClips.clip("tone.wav", ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5"])
            case .directory:
                let path = TestClips.path("a-directory")
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
                return path
            }
        }
    }

    @Test("opening throws a MediaError that names the path and the problem", arguments: Kind.allCases)
    func openFails(_ kind: Kind) throws {
        let path = try kind.make()
        let error = #expect(throws: MediaError.self) { _ = try InputSpec(parsing: path).open() }
        let description = error?.description ?? ""
        print("\(kind.rawValue): \(description)")
        #expect(description.contains(path), "the message should name the input: \(description)")
        #expect(description.count > path.count + 5, "the message should say what is wrong: \(description)")
        #expect(!description.contains("\n"), "the message should be one line: \(description)")
        switch kind {
        case .audioOnlyM4A, .audioOnlyWAV:
            #expect(error == .noVideoStream(input: path))
        case .missingFile:
            #expect(description.lowercased().contains("no such file"), "\(description)")
        default:
            break
        }
    }

    @Test("an mp4 cut short after its index decodes what is there and ends without throwing")
    func truncatedFastStartMP4() throws {
        let whole = try TestClips.clip("faststart.mp4", TestClips.lavfi(width: 160, height: 120, rate: 25, duration: 2)
            + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        let path = TestClips.path("faststart-cut.mp4")
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: path))

        let source = try InputSpec.file(path).open()
        var warnings: [String] = []
        source.onWarning = { warnings.append($0) }
        let decoded = try decodeAll(source)
        print("faststart mp4 cut in half: \(decoded.times.count) of 50 frames, \(warnings.count) warnings")
        #expect(decoded.times.count > 5 && decoded.times.count < 50)
        #expect(zip(decoded.times, decoded.times.dropFirst()).allSatisfy { $0 < $1 })
    }

    /// Deterministic bytes for the corruption (SplitMix64).
    struct SeededBytes {
        var state: UInt64
        mutating func next() -> UInt8 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return UInt8(truncatingIfNeeded: z ^ (z >> 31))
        }
    }

    @Test("a clip with corrupt packets in the middle decodes to the end without throwing", arguments: ["ts", "mp4"])
    func corruptMiddle(_ container: String) throws {
        let frameCount = 50
        let whole = try TestClips.clip("corrupt-source.\(container)",
                                       TestClips.lavfi(width: 320, height: 240, rate: 25, duration: 2)
                                           + ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "12"])
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: whole)))
        let damaged = 8 * 1024
        try #require(bytes.count > 4 * damaged, "the clip is too small to damage: \(bytes.count) bytes")
        var random = SeededBytes(state: 20_240_601)
        let start = bytes.count / 2
        for i in start..<start + damaged { bytes[i] = random.next() }
        let path = TestClips.path("corrupt.\(container)")
        try Data(bytes).write(to: URL(fileURLWithPath: path))

        let source = try InputSpec.file(path).open()
        var warnings: [String] = []
        source.onWarning = { warnings.append($0) }
        let decoded = try decodeAll(source)
        print("corrupt .\(container): \(decoded.times.count) of \(frameCount) frames decoded, \(warnings.count) warnings"
            + (warnings.first.map { ", first: \($0)" } ?? ""))
        #expect(!warnings.isEmpty, "the damage must be reported, as a skipped packet or a concealed frame")
        #expect(decoded.times.count >= frameCount / 2, "only \(decoded.times.count) frames decoded")
        #expect(warnings.allSatisfy { $0.contains(path) }, "warnings should name the input: \(warnings)")
        #expect(zip(decoded.times, decoded.times.dropFirst()).allSatisfy { $0 < $1 })
        // The frames after the damage are still there.
        #expect((decoded.times.last ?? 0) > 1.8, "decoding stopped at \(decoded.times.last ?? 0) s")
    }
}
