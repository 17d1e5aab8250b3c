import Foundation
import Testing
import FilterKit

/// twirl, bump and pinch: Core Image's parameters, what they leave alone, and what they move.
@Suite("Radial distortions")
struct RadialDistortionTests {
    static func filter(_ name: String, _ parameters: [String: Double] = [:]) throws -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try settings(name, parameters))
    }

    /// Luma distance of a pixel centre from `center`.
    static func distance(_ x: Int, _ y: Int, from center: (x: Double, y: Double)) -> Double {
        let dx = Double(x) + 0.5 - center.x, dy = Double(y) + 0.5 - center.y
        return (dx * dx + dy * dy).squareRoot()
    }

    @Test("Descriptors: names, category, parameters, defaults and ranges as Core Image's")
    func descriptors() throws {
        let catalog = FilterCatalog.standard
        let expected: [(String, String, Double, Double, Double, Double, Double)] = [
            // filter, strength parameter, default, min, max, slider min, slider max
            ("twirl", "angle", .pi, -8 * .pi, 8 * .pi, -4 * .pi, 4 * .pi),
            ("bump", "scale", 0.5, -1, 1, -1, 1),
            ("pinch", "scale", 0.5, 0, 2, 0, 2),
        ]
        for (name, strength, value, min, max, sliderMin, sliderMax) in expected {
            let descriptor = try #require(catalog.descriptor(named: name))
            #expect(descriptor.category == .distortion)
            #expect(descriptor.params.map(\.name) == [strength, "radius", "centerX", "centerY"])
            let p = try #require(descriptor.parameter(named: strength))
            #expect((p.default, p.min, p.max, p.sliderMin, p.sliderMax, p.identity) == (value, min, max, sliderMin, sliderMax, 0))
            let radius = try #require(descriptor.parameter(named: "radius"))
            #expect((radius.default, radius.min, radius.identity) == (300, 0, 0))
            for centre in ["centerX", "centerY"] {
                let c = try #require(descriptor.parameter(named: centre))
                #expect((c.default, c.min, c.max, c.identity) == (0.5, 0, 1, nil))
            }
        }
        #expect(catalog.descriptor(named: "twirl")?.parameter(named: "angle")?.type == .angle)
    }

    @Test("Pixels on and outside the circle stay bit-exact; pixels inside change",
          arguments: [("twirl", ["angle": 2.0]), ("twirl", ["angle": -9.0]), ("bump", ["scale": 1.0]),
                      ("bump", ["scale": -1.0]), ("pinch", ["scale": 0.5]), ("pinch", ["scale": 2.0])])
    func outsideUntouched(name: String, strength: [String: Double]) throws {
        // Centre near the top-left corner: the disk is cut by the frame's edges.
        let (width, height) = (64, 48)
        let parameters = strength.merging(["radius": 450, "centerX": 0.3, "centerY": 0.35]) { a, _ in a }
        let radius = 450.0 * Double(height) / 1080, center = (x: 0.3 * 64, y: 0.35 * 48)
        let original = Frame.random(width: width, height: height, seed: 11)
        let frame = original.clone()
        try Self.filter(name, parameters).apply(to: frame)
        var changedInside = 0, inside = 0
        for y in 0..<height {
            for x in 0..<width {
                if Self.distance(x, y, from: center) >= radius {
                    #expect(frame.y[x, y] == original.y[x, y], "\(name) luma (\(x), \(y))")
                } else {
                    inside += 1
                    if frame.y[x, y] != original.y[x, y] { changedInside += 1 }
                }
            }
        }
        for y in 0..<frame.u.height {
            // Chroma sample (x, y) sits at luma coordinates (2x + 1, 2y + 1).
            for x in 0..<frame.u.width where hypot(Double(2 * x + 1) - center.x, Double(2 * y + 1) - center.y) >= radius {
                #expect(frame.u[x, y] == original.u[x, y] && frame.v[x, y] == original.v[x, y], "\(name) chroma (\(x), \(y))")
            }
        }
        #expect(changedInside > inside / 2, "\(name): \(changedInside) of \(inside) pixels inside changed")
    }

    @Test("The centre pixel keeps its value", arguments: [("twirl", ["angle": 12.0]), ("bump", ["scale": 1.0]),
                                                          ("bump", ["scale": -1.0]), ("pinch", ["scale": 2.0]),
                                                          ("pinch", ["scale": 0.7])])
    func centreStays(name: String, parameters: [String: Double]) throws {
        let original = Frame.random(width: 33, height: 33, seed: 4)
        let frame = original.clone()
        try Self.filter(name, parameters.merging(["radius": 500]) { a, _ in a }).apply(to: frame)
        #expect(frame.y[16, 16] == original.y[16, 16])
        #expect(frame.samples != original.samples)
    }

    @Test("Twirl leaves rings nearly unchanged and turns spokes")
    func twirlRingsAndSpokes() throws {
        let center = (x: 80.0, y: 80.0), radius = 60.0
        let twirl = try Self.filter("twirl", ["angle": .pi, "radius": radius * 1080 / 160])
        let rings = Frame.rings(width: 160, height: 160, center: center), twirledRings = rings.clone()
        twirl.apply(to: twirledRings)
        #expect(maxDifference(rings, twirledRings) <= 3)
        let spokes = Frame.spokes(width: 160, height: 160, center: center), twirledSpokes = spokes.clone()
        twirl.apply(to: twirledSpokes)
        #expect(Self.meanDifference(spokes, twirledSpokes, center: center, within: 10..<(radius / 2)) > 40)
    }

    @Test("Bump and pinch leave spokes nearly unchanged and move rings",
          arguments: [("bump", 0.5), ("bump", -1.0), ("pinch", 0.5), ("pinch", 2.0)])
    func scalingRingsAndSpokes(name: String, scale: Double) throws {
        let center = (x: 80.0, y: 80.0), radius = 60.0
        let filter = try Self.filter(name, ["scale": scale, "radius": radius * 1080 / 160])
        let spokes = Frame.spokes(width: 160, height: 160, center: center), scaledSpokes = spokes.clone()
        filter.apply(to: scaledSpokes)
        // Near the centre the spokes are finer than a pixel; the bump at scale 0.5 samples there.
        for y in 0..<160 {
            for x in 0..<160 where (25..<radius).contains(Self.distance(x, y, from: center)) {
                #expect(abs(Int(scaledSpokes.y[x, y]) - Int(spokes.y[x, y])) <= 6, "(\(x), \(y))")
            }
        }
        let rings = Frame.rings(width: 160, height: 160, center: center), scaledRings = rings.clone()
        filter.apply(to: scaledRings)
        #expect(Self.meanDifference(rings, scaledRings, center: center, within: 0..<radius) > 20)
    }

    @Test("A positive twirl turns the picture counterclockwise on screen")
    func twirlDirection() throws {
        // A bright block right of the centre moves up (smaller y) under a small positive twirl.
        let frame = Frame.filled(width: 101, height: 101, y: 0)
        for y in 48...52 { for x in 70...74 { frame.y[x, y] = 255 } }
        try Self.filter("twirl", ["angle": 1, "radius": 1080 * 40 / 101]).apply(to: frame)
        var weight = 0.0, sumY = 0.0
        for y in 0..<101 { for x in 0..<101 { weight += Double(frame.y[x, y]); sumY += Double(y * Int(frame.y[x, y])) } }
        #expect(weight > 0 && sumY / weight < 47)
    }

    @Test("The radius scales with the frame height: the same settings move the same share of a frame")
    func radiusScales() throws {
        for height in [54, 108, 216] {
            let frame = Frame.random(width: height * 16 / 9, height: height, seed: 3), original = frame.clone()
            try Self.filter("bump", ["radius": 270]).apply(to: frame)
            let changed = zip(frame.y.samples, original.y.samples).filter { $0 != $1 }.count
            // The disk of radius height/4 covers π/16 of height², minus pixels that happen to keep their value.
            let disk = Double.pi * Double(height * height) / 16
            #expect(Double(changed) > 0.8 * disk && Double(changed) <= disk + 4 * Double(height), "\(height): \(changed)")
        }
    }

    /// The mean absolute luma difference over pixels at a distance in `within` from `center`.
    static func meanDifference(_ a: Frame, _ b: Frame, center: (x: Double, y: Double), within: Range<Double>) -> Double {
        var sum = 0, count = 0
        for y in 0..<a.height {
            for x in 0..<a.width where within.contains(distance(x, y, from: center)) {
                sum += abs(Int(a.y[x, y]) - Int(b.y[x, y]))
                count += 1
            }
        }
        return Double(sum) / Double(Swift.max(count, 1))
    }
}
