@testable import CastServer
import CastProtocol
import Testing

/// `watch {audio}`: asking for sound, and how a listener walks the sound's log.
extension ViewerSessionTests {
    /// The sound's log holding packets `oldest…latest`.
    func sound(latest: UInt64, oldest: UInt64 = 1) -> FrameSupply {
        FrameSupply(jpeg: [:], audio: AccessUnitLog.Position(latest: latest, oldest: oldest), now: clock.now)
    }

    func listener() -> ViewerSession {
        let listener = ViewerSession(token: nil, accessToken: nil, publicView: false, offer: Self.offer,
                                     features: ServerFeatures(audio: .wire), now: { [clock] in clock.now })
        #expect(send(#"{"type":"watch","transport":"jpeg","audio":true}"#, to: listener) == .watching)
        return listener
    }

    @Test func onlyAListenerGetsSound() {
        let plain = ViewerSession(token: nil, accessToken: nil, publicView: false, offer: Self.offer, features: ServerFeatures(audio: .wire),
                                  now: { [clock] in clock.now })
        #expect(plain.nextWrite(supply: sound(latest: 3), frameInterval: Self.frameInterval) == .nothing)
        let listener = listener()
        #expect(listener.isListening)
        #expect(listener.nextWrite(supply: sound(latest: 3), frameInterval: Self.frameInterval) == .audio(sequence: 3),
                "a listener starts at the newest packet")
        #expect(send(#"{"type":"watch","transport":"jpeg"}"#, to: listener) == .none, "watch without audio keeps it")
        #expect(listener.isListening)
        #expect(send(#"{"type":"watch","transport":"jpeg","audio":false}"#, to: listener) == .watching)
        #expect(listener.nextWrite(supply: sound(latest: 4), frameInterval: Self.frameInterval) == .nothing)
    }

    @Test func aListenerGoesOnInOrderAndSkipsToTheNewestWhenTheLogLeftItBehind() {
        let listener = listener()
        #expect(listener.audioSent(3) == 0)
        #expect(listener.nextWrite(supply: sound(latest: 9), frameInterval: Self.frameInterval) == .audio(sequence: 4))
        #expect(listener.audioSent(4) == 0)
        #expect(listener.nextWrite(supply: sound(latest: 80, oldest: 31), frameInterval: Self.frameInterval) == .audio(sequence: 80),
                "packet 5 left the log: the newest")
        #expect(listener.audioSent(80) == 75)
        #expect(listener.nextWrite(supply: sound(latest: 80, oldest: 31), frameInterval: Self.frameInterval) == .nothing)
    }

    @Test func soundIsRefusedWhereNoneIsOffered() {
        let deaf = viewer()
        send(#"{"type":"watch","transport":"jpeg","audio":true,"id":1}"#, to: deaf)
        let answer = messages(writes(deaf)).first
        #expect(answer?["code"] as? String == "out_of_range")
        #expect(!deaf.isListening)
        send(#"{"type":"watch","transport":"jpeg","audio":1,"id":2}"#, to: deaf)
        #expect(messages(writes(deaf)).first?["code"] as? String == "invalid_argument")
    }
}
