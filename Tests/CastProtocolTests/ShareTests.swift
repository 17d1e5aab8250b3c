import CastProtocol
import Testing

/// `share` (a client's camera as the source) and its pictures, `FCI1` binary messages.
@Suite("Share")
struct ShareTests {
    @Test func startAndStopParse() throws {
        let start = try ClientMessageParser.parse(
            #"{"type":"share","action":"start","codec":"h264","width":1280,"height":720,"label":"Cam","id":3}"#)
        #expect(start.id == .number(3))
        #expect(start.command == .session(.share(ShareRequest(codec: .h264, width: 1280, height: 720, label: "Cam", takeOver: false))))
        let takeOver = try ClientMessageParser.parse(
            #"{"type":"share","action":"start","codec":"jpeg","width":720,"height":1280,"takeOver":true}"#)
        #expect(takeOver.command == .session(.share(ShareRequest(codec: .jpeg, width: 720, height: 1280, label: "", takeOver: true))))
        #expect(try ClientMessageParser.parse(#"{"type":"share","action":"stop"}"#).command == .session(.share(nil)))
        let long = String(repeating: "x", count: 500)
        let cut = try ClientMessageParser.parse(
            #"{"type":"share","action":"start","codec":"h264","width":16,"height":16,"label":"\#(long)"}"#)
        #expect(cut.command == .session(.share(ShareRequest(codec: .h264, width: 16, height: 16,
                                                   label: String(repeating: "x", count: ShareRequest.maximumLabelLength), takeOver: false))))
    }

    @Test(arguments: [
        (#"{"type":"share"}"#, ErrorCode.invalidArgument, "share.action"),
        (#"{"type":"share","action":"pause"}"#, .outOfRange, "share.action"),
        (#"{"type":"share","action":"start","width":640,"height":360}"#, .invalidArgument, "share.codec"),
        (#"{"type":"share","action":"start","codec":"vp9","width":640,"height":360}"#, .outOfRange, "share.codec"),
        (#"{"type":"share","action":"start","codec":"h264","width":8000,"height":360}"#, .outOfRange, "share.width"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":0.5}"#, .invalidArgument, "share.height"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"takeOver":1}"#, .invalidArgument, "share.takeOver"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":true}"#, .invalidArgument, "share.audio"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":{"codec":"aac","channels":2,"rate":48000}}"#,
         .outOfRange, "share.audio.codec"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":{"codec":"opus","channels":6,"rate":48000}}"#,
         .outOfRange, "share.audio.channels"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":{"codec":"opus","channels":1,"rate":44100}}"#,
         .outOfRange, "share.audio.rate"),
        (#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":{"codec":"opus","rate":48000}}"#,
         .invalidArgument, "share.audio.channels"),
    ])
    func badRequestsNameTheField(json: String, code: ErrorCode, field: String) {
        #expect {
            try ClientMessageParser.parse(json)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == code && error.message.contains(field)
        }
    }

    @Test func audioIsAnnouncedOrNot() throws {
        let start = try ClientMessageParser.parse(#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"#
            + #""audio":{"codec":"opus","channels":1,"rate":48000}}"#)
        #expect(start.command == .session(.share(ShareRequest(codec: .h264, width: 640, height: 360, label: "", takeOver: false,
                                                     audio: ShareRequest.Audio(channels: 1, rate: 48_000)))))
        let silent = try ClientMessageParser.parse(#"{"type":"share","action":"start","codec":"h264","width":640,"height":360,"audio":null}"#)
        #expect(silent.command == .session(.share(ShareRequest(codec: .h264, width: 640, height: 360, label: "", takeOver: false))))
    }

    static func message(_ header: [UInt8], _ payload: [UInt8]) -> [UInt8] { header + payload }

    @Test func aMicrophonePacketIsItsHeaderThenOneOpusPacket() throws {
        let header: [UInt8] = Array("FCM1".utf8) + [32, 0, 0, 0] + [3, 0, 0, 0, 0, 0, 0, 0]
            + [0x40, 0x42, 0x0F, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        try Self.message(header, [0xFC, 0xFF, 0xFE]).withUnsafeBytes { raw in
            #expect(IngestSound.isSound(raw))
            let packet = try IngestSound.parse(raw)
            #expect(packet.header.sequence == 3 && packet.captureTime == 1_000_000 && Array(packet.payload) == [0xFC, 0xFF, 0xFE])
        }
        let large = Self.message(header, [UInt8](repeating: 1, count: IngestSound.maximumPacketBytes + 1))
        #expect { try large.withUnsafeBytes { try IngestSound.parse($0) } } throws: { ($0 as? ProtocolError)?.code == .tooLarge }
        #expect { try header.withUnsafeBytes { try IngestSound.parse($0) } } throws: {
            ($0 as? ProtocolError).map { $0.code == .invalidArgument && $0.message.contains("no Opus packet") } == true
        }
        #expect(!([UInt8]("FCI1".utf8) + header.dropFirst(4)).withUnsafeBytes { IngestSound.isSound($0) })
    }

    @Test func aPictureIsItsHeaderThenItsBytes() throws {
        let header: [UInt8] = Array("FCI1".utf8) + [32, 0, 2, 0] + [7, 0, 0, 0, 0, 0, 0, 0]
            + [0x40, 0x42, 0x0F, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
        let bytes = Self.message(header, [0, 0, 0, 1, 0x65, 0x88])
        try bytes.withUnsafeBytes { raw in
            let picture = try IngestPicture.parse(raw)
            #expect(picture.isKeyframe && picture.header.sequence == 7 && picture.captureTime == 1_000_000)
            #expect(Array(picture.payload) == [0, 0, 0, 1, 0x65, 0x88])
        }
    }

    @Test(arguments: [
        [UInt8](),
        Array("FCF1".utf8) + [32, 0] + [UInt8](repeating: 0, count: 30),  // a server's frame header
        Array("FCI1".utf8) + [40, 0] + [UInt8](repeating: 0, count: 30),  // another header length
        Array("FCI1".utf8) + [32, 0] + [UInt8](repeating: 0, count: 26),  // a header alone
        Array("FCI1".utf8) + [32, 0] + [UInt8](repeating: 0, count: 10),  // cut short
    ])
    func anythingElseIsRefused(bytes: [UInt8]) {
        #expect {
            try bytes.withUnsafeBytes { try IngestPicture.parse($0) }
        } throws: { error in
            (error as? ProtocolError)?.code == .invalidArgument
        }
    }
}
