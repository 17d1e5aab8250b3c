import CastProtocol
import Testing

/// The review-playback types, case by case: which rates exist and keep their sound, and the loop's
/// bounds against a source.
@Suite struct ShuttleTypesTests {
    @Test(arguments: [(4.0, true), (0.25, true), (-0.25, true), (-4, true), (1, true), (0, false), (0.249, false),
                      (-0.249, false), (4.001, false), (-4.5, false), (.nan, false), (.infinity, false)])
    func theAllowedRatesAreAQuarterToFourEitherWay(value: Double, allowed: Bool) {
        #expect((PlaybackRate(value) != nil) == allowed)
    }

    @Test(arguments: [(1.0, nil), (0.5, nil), (2, nil), (0.25, "no sound at 0.25× (sound plays from 0.5× to 2× forward)"),
                      (4, "no sound at 4× (sound plays from 0.5× to 2× forward)"), (-1, "no sound while playing backward"),
                      (-0.5, "no sound while playing backward")])
    func soundPlaysFromHalfToTwiceForwardOnly(value: Double, silence: String?) {
        let rate = PlaybackRate(value)!
        #expect(rate.silenceReason == silence)
        #expect(rate.hasSound == (silence == nil))
        #expect(rate.isReverse == (value < 0))
    }

    @Test func aLoopIsInBeforeOutAndWithinTheSource() throws {
        #expect(LoopRange(in: 1, out: 1) == nil)
        #expect(LoopRange(in: 2, out: 1) == nil)
        #expect(LoopRange(in: -0.1, out: 1) == nil)
        #expect(LoopRange(in: 0, out: .infinity) == nil)
        let range = LoopRange(in: 1, out: 3.96)!
        #expect(try range.checked(within: 3.96) == range)
        #expect(try range.checked(within: nil) == range)
        #expect(throws: ProtocolError.self) { try range.checked(within: 3.5) }
        do {
            _ = try range.checked(within: 3.5)
        } catch {
            #expect(error.code == .outOfRange && error.message.contains("within the source (0…3.5 s)"))
        }
    }

    @Test func aPlayheadOnEitherEndIsInsideTheLoop() {
        let range = LoopRange(in: 1, out: 2)!
        #expect(range.contains(1) && range.contains(2) && range.contains(1.5) && range.contains(0.9995))
        #expect(!range.contains(0.99) && !range.contains(2.01) && !range.contains(0))
    }
}
