import CastProtocol
import Foundation
import Testing

/// Replays the ingest fuzzer's seed corpus and every input it ever crashed on
/// (Tests/Fuzz/corpus/ingest, Tests/Fuzz/regressions/ingest): each message is a picture whose
/// payload is the rest of the message, or refused with an error naming FCI1.
@Suite("Fuzz corpus: ingest pictures")
struct IngestCorpusTests {
    static let inputs = FuzzInputs.files(of: "ingest")

    @Test("The corpus has pictures and refusals")
    func corpusPresent() throws {
        let parsed = try Self.inputs.filter { url in
            try Data(contentsOf: url).withUnsafeBytes { (message: UnsafeRawBufferPointer) in (try? IngestPicture.parse(message)) != nil }
        }
        #expect(parsed.count >= 3 && Self.inputs.count - parsed.count >= 5)
    }

    @Test("Every message is a picture or refused naming FCI1", arguments: inputs)
    func replay(input: URL) throws {
        let bytes = try Data(contentsOf: input)
        bytes.withUnsafeBytes { (message: UnsafeRawBufferPointer) in
            do throws(ProtocolError) {
                let picture = try IngestPicture.parse(message)
                #expect(picture.payload.baseAddress == message.baseAddress! + FrameHeader.size)
                #expect(picture.payload.count == message.count - FrameHeader.size && !picture.payload.isEmpty)
            } catch {
                #expect(error.code == .invalidArgument && error.message.contains("FCI1"), "\(input.lastPathComponent)")
            }
        }
    }
}
