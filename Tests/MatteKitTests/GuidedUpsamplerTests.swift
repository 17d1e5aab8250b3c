@testable import MatteKit
import Testing

@Suite struct GuidedUpsamplerTests {
    /// The unchecked rounding of the upsampler's output loop is Swift's own rounding (ties to even)
    /// on the whole range it is given, ends included.
    @Test func outputCodesAreRoundedAsSwiftRounds() {
        for step in 0...(255 * 64) {
            let value = Float(step) / 64
            #expect(GuidedUpsampler.rounded(value) == UInt8(value.rounded(.toNearestOrEven)), "\(value)")
        }
    }
}
