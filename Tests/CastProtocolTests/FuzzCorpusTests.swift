import CastProtocol
import Foundation
import Testing

/// Replays the command fuzzer's seed corpus and every input it ever crashed on
/// (Tests/Fuzz/corpus/commands, Tests/Fuzz/regressions/commands): each is parsed or refused with
/// an error that encodes as valid JSON.
@Suite("Fuzz corpus: commands")
struct FuzzCorpusTests {
    static let inputs = FuzzInputs.files(of: "commands")

    @Test("The corpus is there")
    func corpusPresent() {
        #expect(Self.inputs.count >= 10)
    }

    @Test("Every input is parsed or refused with a well-formed error", arguments: inputs)
    func replay(input: URL) throws {
        let bytes = try Data(contentsOf: input)
        do {
            _ = try bytes.withUnsafeBytes { try ClientMessageParser.parse($0) }
        } catch let error as ProtocolError {
            #expect(!error.message.isEmpty)
            let encoded = Data(ServerMessage.error(error).encoded())
            #expect((try? JSONSerialization.jsonObject(with: encoded)) != nil, "\(input.lastPathComponent)")
        }
    }
}
