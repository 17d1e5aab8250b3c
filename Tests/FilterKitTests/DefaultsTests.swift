import Foundation
import Testing
import FilterKit

/// Picking a filter shows a change: at its defaults every standard filter but "none" alters a
/// natural picture visibly (a filter that looked like "None" when picked would seem broken).
@Suite("Defaults")
struct DefaultsTests {
    /// A picture like footage: smooth light and colour gradients, texture, grain, a dark object
    /// with sharp edges, mid-range values (no clipping) and moderate colour.
    static func naturalPicture(width: Int = 640, height: Int = 360) -> Frame {
        let frame = Frame(width: width, height: height)
        var grain = SplitMix64(seed: 12)
        for row in 0..<height {
            for x in 0..<width {
                let gradient = 60 + 120 * Double(x + row) / Double(width + height)
                let texture = 12 * sin(Double(x) / 3) * cos(Double(row) / 4) + Double.random(in: -5...5, using: &grain)
                let object = (width / 3..<width / 2).contains(x) && (height / 3..<2 * height / 3).contains(row)
                frame.y[x, row] = UInt8((object ? 35 : gradient + texture).rounded())
            }
        }
        for row in 0..<frame.u.height {
            for x in 0..<frame.u.width {
                frame.u[x, row] = UInt8((128 + 30 * sin(Double(x) / 11)).rounded())
                frame.v[x, row] = UInt8((128 + 25 * cos(Double(row) / 7)).rounded())
            }
        }
        return frame
    }

    /// The fraction of samples (all planes) that differ by 4 levels or more: a change one sees
    /// on a picture this smooth.
    static func visibleFraction(_ a: Frame, _ b: Frame) -> Double {
        let changed = zip(a.samples, b.samples).filter { abs(Int($0.0) - Int($0.1)) >= 4 }.count
        return Double(changed) / Double(a.samples.count)
    }

    /// The subtlest filters (sharpen, unsharp mask: edges and grain only) change about 0.26% of
    /// this picture's samples visibly; most change 5–95%. A filter at an identity changes none.
    @Test("Every filter at its defaults changes a natural picture; none only \"none\"",
          arguments: FilterCatalog.standard.descriptors.map(\.name))
    func defaultsChangeTheNaturalPicture(name: String) throws {
        let original = Self.naturalPicture()
        let frame = original.clone()
        FilterCatalog.standard.makeFilter(try settings(name)).apply(to: frame)
        if name == "none" {
            #expect(frame.samples == original.samples)
        } else {
            let changed = Self.visibleFraction(original, frame)
            #expect(changed >= 0.002, "\(name) at its defaults: \(changed * 100)% of the samples visibly changed")
        }
    }

    /// The defaults are not the identity, and the identity still is: the identity tests pass
    /// these values explicitly (IdentityTests), so they keep testing what they did.
    @Test("No parameter's identity is what picking its filter gives, for the colour adjustments and vignette",
          arguments: ["colorControls", "hueAdjust", "exposure", "gamma", "vibrance", "temperature", "vignette"])
    func defaultsAreNotTheIdentity(name: String) throws {
        let descriptor = try #require(FilterCatalog.standard.descriptor(named: name))
        #expect(descriptor.params.contains { $0.identity != nil && $0.default != $0.identity }, "\(name)")
    }
}
