import CastProtocol
import Testing

/// SplitMix64: a small seeded generator, so that every run feeds the parser the same inputs.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Parser robustness")
struct RobustnessTests {
    /// Parses `bytes` and checks that whatever comes out keeps the promises the session relies on.
    static func check(_ bytes: [UInt8]) -> Bool {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(ProtocolError) in try ClientMessageParser.parse(buffer) }
        }
        switch result {
        case .success(let message):
            switch message.command {
            case .session(.seek(let position)): #expect(position.isFinite && position >= 0)
            case .connection(.flow(let window)): #expect((0...16).contains(window))
            default: break
            }
            if case .number(let id) = message.id { #expect(id.isFinite) }
            return true
        case .failure(let error):
            #expect(!error.message.isEmpty)
            return false
        }
    }

    static let validMessages = [
        #"{"type":"setFilter","name":"comic","params":{"levels":4,"edgeThreshold":0.3},"id":"f1"}"#,
        #"{"type":"setParams","params":{"intensity":0.5},"id":12}"#,
        #"{"type":"seek","position":12.5,"id":"s"}"#,
        #"{"type":"frameAck","seq":18446744073709551615}"#,
        #"{"type":"flow","window":16}"#,
        #"{"type":"auth","token":"t\u00e9\ud83d\ude00"}"#,
        #"{"type":"play","extra":[1,{"a":[true,false,null]}]}"#,
    ]

    @Test func randomBytesNeverCrash() {
        var generator = SeededGenerator(seed: 0xF11_7E2C_A57)
        // Mostly JSON-ish bytes, so that inputs get past the first character.
        let alphabet = Array(#"{}[]":,.-+0123456789eE \tnulltruefalse\u"typeidseqwindow"#.utf8)
        for _ in 0..<10_000 {
            let count = Int.random(in: 0...120, using: &generator)
            let bytes = (0..<count).map { _ in
                Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            _ = Self.check(bytes)
        }
    }

    @Test func mutatedValidMessagesNeverCrash() {
        var generator = SeededGenerator(seed: 42)
        var accepted = 0
        for _ in 0..<10_000 {
            var bytes = Array(Self.validMessages.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<max(bytes.count, 1), using: &generator)
                switch Int.random(in: 0..<4, using: &generator) {
                case 0 where !bytes.isEmpty: bytes[index] = UInt8.random(in: 0...255, using: &generator)
                case 1 where !bytes.isEmpty: bytes.remove(at: index)
                case 2: bytes.insert(UInt8.random(in: 0...255, using: &generator), at: min(index, bytes.count))
                default: bytes = Array(bytes.prefix(index))
                }
            }
            if Self.check(bytes) { accepted += 1 }
        }
        // Some mutations land in ignorable places (inside strings, extra fields): both paths run.
        #expect(accepted > 0 && accepted < 10_000)
    }
}
