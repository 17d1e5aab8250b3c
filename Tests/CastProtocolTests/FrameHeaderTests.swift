import CastProtocol
import Testing

@Suite("Frame header")
struct FrameHeaderTests {
    static func bytes(of header: FrameHeader) -> [UInt8] {
        var bytes = [UInt8](repeating: 0xEE, count: FrameHeader.size)
        bytes.withUnsafeMutableBytes { header.write(to: $0.baseAddress!) }
        return bytes
    }

    static func parse(_ bytes: [UInt8]) -> FrameHeader? {
        bytes.withUnsafeBytes { FrameHeader(parsing: $0) }
    }

    @Test func knownHeaderHasTheDocumentedBytes() {
        let header = FrameHeader(flags: .stateChanged, sequence: 0x0102_0304_0506_0708,
                                 presentationTime: 12_500_000, sendTime: -2)
        #expect(Self.bytes(of: header) == [
            0x46, 0x43, 0x46, 0x31,                          // "FCF1"
            0x20, 0x00,                                      // header length 32
            0x01, 0x00,                                      // flags: state changed
            0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,  // sequence
            0x20, 0xBC, 0xBE, 0x00, 0x00, 0x00, 0x00, 0x00,  // 12 500 000 µs
            0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,  // -2 µs
        ])
        #expect(FrameHeader.size == 32)
        #expect(FrameHeader.magic == Array("FCF1".utf8))
    }

    @Test(arguments: [
        FrameHeader(flags: [], sequence: 0, presentationTime: 0, sendTime: 0),
        FrameHeader(flags: .stateChanged, sequence: 1, presentationTime: 33_333, sendTime: 1_767_225_600_000_000),
        FrameHeader(flags: FrameHeader.Flags(rawValue: 0xFFFF), sequence: .max, presentationTime: .min, sendTime: .max),
    ])
    func roundTrips(_ header: FrameHeader) {
        #expect(Self.parse(Self.bytes(of: header)) == header)
    }

    @Test func parsesTheHeaderInFrontOfAJPEG() {
        let header = FrameHeader(flags: [], sequence: 99, presentationTime: 1, sendTime: 2)
        let message = Self.bytes(of: header) + [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]
        #expect(Self.parse(message) == header)
        // Unaligned input: the header may start anywhere in a buffer.
        let shifted = [0x00] + message
        let parsed = shifted.withUnsafeBytes { FrameHeader(parsing: UnsafeRawBufferPointer(rebasing: $0.dropFirst())) }
        #expect(parsed == header)
    }

    @Test func rejectsShortInputBadMagicAndWrongLength() {
        let good = Self.bytes(of: FrameHeader(flags: [], sequence: 5, presentationTime: 6, sendTime: 7))
        #expect(Self.parse([]) == nil)
        #expect(Self.parse(Array(good.prefix(31))) == nil)
        var badMagic = good
        badMagic[3] = UInt8(ascii: "2")
        #expect(Self.parse(badMagic) == nil)
        var lowercase = good
        lowercase[0] = UInt8(ascii: "f")
        #expect(Self.parse(lowercase) == nil)
        var longer = good
        longer[4] = 40
        #expect(Self.parse(longer + [UInt8](repeating: 0, count: 8)) == nil)
        var bigEndianLength = good
        bigEndianLength[4] = 0
        bigEndianLength[5] = 32
        #expect(Self.parse(bigEndianLength) == nil)
    }
}

@Suite("Access unit header")
struct AccessUnitHeaderTests {
    @Test func knownHeaderHasTheDocumentedBytes() {
        let header = AccessUnitHeader(frame: FrameHeader(flags: [.stateChanged, AccessUnitHeader.keyframe], sequence: 7,
                                                         presentationTime: 40_000, sendTime: 1),
                                      width: 1280, height: 720, rendition: 2)
        var bytes = [UInt8](repeating: 0xEE, count: AccessUnitHeader.size)
        bytes.withUnsafeMutableBytes { header.write(to: $0.baseAddress!) }
        #expect(Array(bytes[0..<8]) == [0x46, 0x43, 0x48, 0x31, 0x28, 0x00, 0x03, 0x00], "FCH1, length 40, flags 3")
        #expect(Array(bytes[32..<40]) == [0x00, 0x05, 0xD0, 0x02, 0x02, 0x00, 0x00, 0x00], "1280, 720, rendition 2, reserved")
        #expect(bytes.withUnsafeBytes { AccessUnitHeader(parsing: $0) } == header)
        #expect(header.isKeyframe)
    }

    @Test func aJPEGHeaderIsNotAnAccessUnitHeaderNorTheOtherWayRound() {
        var jpeg = [UInt8](repeating: 0, count: 40)
        jpeg.withUnsafeMutableBytes { FrameHeader(flags: [], sequence: 1, presentationTime: 0, sendTime: 0).write(to: $0.baseAddress!) }
        #expect(jpeg.withUnsafeBytes { AccessUnitHeader(parsing: $0) } == nil)
        var unit = [UInt8](repeating: 0, count: 40)
        let header = AccessUnitHeader(frame: FrameHeader(flags: [], sequence: 1, presentationTime: 0, sendTime: 0), width: 2, height: 2, rendition: 1)
        unit.withUnsafeMutableBytes { header.write(to: $0.baseAddress!) }
        #expect(unit.withUnsafeBytes { FrameHeader(parsing: $0) } == nil)
        #expect(unit.prefix(39).withUnsafeBytes { AccessUnitHeader(parsing: $0) } == nil, "too short")
    }
}
