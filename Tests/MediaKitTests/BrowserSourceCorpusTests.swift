import FilterKit
import Foundation
import MediaKit
import Testing

/// Replays the browser-source fuzzer's seeds and every input it ever crashed on
/// (Tests/Fuzz/corpus/browser-source, Tests/Fuzz/regressions/browser-source; their format is in
/// Tests/Fuzz/README.md) through a 64x64 ``BrowserSource``: the valid-* seeds (real x264 access
/// units and JPEGs) give a frame a picture; no read fails but for a stall or a picture that is
/// not 64x64 and has no side larger (the decoder allocates none), which ends the source (later pictures are refused, and its reason
/// stays); after `end` the read fails with the reason.
@Suite("Fuzz corpus: browser source")
struct BrowserSourceCorpusTests {
    static let inputs: [URL] = ["corpus", "regressions"].flatMap { folder in
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/\(folder)/browser-source")
        return (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
    }

    /// What one input made: frames read, and the reasons of the reads that failed but for a stall.
    struct Outcome {
        var pictures = 0
        var frames = 0
        var refusals: [String] = []
    }

    @Test("Every input decodes or fails as the fuzzer demands", arguments: inputs)
    func replay(input: URL) throws {
        let outcome = try Self.replay(Data(contentsOf: input))
        let prefix = "error reading camera: its pictures are ", suffix = ", not the 64x64 announced"
        for reason in outcome.refusals {
            #expect(reason.hasPrefix(prefix) && reason.hasSuffix(suffix))
            let size = reason.dropFirst(prefix.count).dropLast(suffix.count).split(separator: "x").compactMap { Int($0) }
            #expect(size.count == 2 && size[0] <= 64 && size[1] <= 64, "\(reason)")
        }
        if input.lastPathComponent.hasPrefix("valid-") {
            #expect(outcome.frames == outcome.pictures && outcome.refusals.isEmpty, "\(input.lastPathComponent): \(outcome)")
        }
    }

    @Test("The valid seeds are there") func validSeeds() {
        #expect(Self.inputs.filter { $0.lastPathComponent.hasPrefix("valid-") }.count >= 4)
    }

    /// Byte 0: bit 0 H.264, bit 1 a burst, bit 2 a 64x64 session; then `FCIS`-separated pictures,
    /// each a flags byte (bit 0 keyframe) and its bytes.
    static func replay(_ input: Data) throws -> Outcome {
        let mode = input.first ?? 0
        let side = mode & 4 != 0 ? (64, 64) : (48, 36)
        let source = try BrowserSource(codec: mode & 1 != 0 ? .h264 : .jpeg, name: "camera", announced: (64, 64),
                                       width: side.0, height: side.1, frameRate: 30, stallTimeout: .zero)
        let frame = Frame(width: side.0, height: side.1)
        var outcome = Outcome()
        for piece in input.dropFirst().split(separator: Data("FCIS".utf8)) where piece.count > 1 {
            outcome.pictures += 1
            let taken = piece.dropFirst().withUnsafeBytes {
                source.offer($0, keyframe: piece.first! & 1 != 0, captureTime: Int64(outcome.pictures) * 33_333)
            }
            #expect(outcome.refusals.isEmpty || !taken, "a source ended by a picture's size took another")
            if mode & 2 == 0 { readAll(source, into: frame, outcome: &outcome) }
        }
        readAll(source, into: frame, outcome: &outcome)
        source.end(reason: "replayed")
        let reason = source.endReason ?? ""
        #expect(outcome.refusals.isEmpty ? reason == "replayed" : outcome.refusals[0].hasSuffix(reason))
        #expect(throws: MediaError.readFailed(input: "camera", reason: reason)) { try source.read(into: frame) }
        return outcome
    }

    /// Reads until a stall, or the refusal of a picture's size, which ends the source.
    private static func readAll(_ source: BrowserSource, into frame: Frame, outcome: inout Outcome) {
        while outcome.refusals.isEmpty {
            do {
                if try source.read(into: frame) { outcome.frames += 1 }
            } catch {
                if error.description.hasSuffix("no picture for 0 s") { return }
                outcome.refusals.append(error.description)
            }
        }
    }
}
