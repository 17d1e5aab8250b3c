import CastProtocol
import Testing

@Test func protocolVersionIsOne() {
    #expect(ProtocolVersion.number == 1)
    #expect(ProtocolVersion.subprotocol == "filtercast.v1")
}
