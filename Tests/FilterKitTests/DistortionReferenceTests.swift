import Foundation
import Testing
import FilterKit

/// The distortions against a floating-point model of their definitions (``expectedRemap(of:map:)``),
/// over every plane and odd sizes with the effect cut by the frame's edges; and every size runs.
@Suite("Distortion reference")
struct DistortionReferenceTests {
    static func filter(_ name: String, _ parameters: [String: Double]) throws -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try settings(name, parameters))
    }

    @Test("Twirl matches its definition within 1", arguments: [Size(41, 31), Size(64, 36), Size(7, 5)])
    func twirl(size: Size) throws {
        let angle = 2.5, radius = 700.0, center = (x: 0.35 * Double(size.width), y: 0.6 * Double(size.height))
        let r = radius * Double(size.height) / 1080
        let original = Frame.random(width: size.width, height: size.height, seed: 31)
        let expected = expectedRemap(of: original) { x, y in
            let dx = x - center.x, dy = y - center.y, d = (dx * dx + dy * dy).squareRoot()
            guard d < r else { return nil }
            let turn = angle * (1 - d / r) * (1 - d / r)
            return (center.x + cos(turn) * dx - sin(turn) * dy, center.y + sin(turn) * dx + cos(turn) * dy)
        }
        let frame = original.clone()
        try Self.filter("twirl", ["angle": angle, "radius": radius, "centerX": 0.35, "centerY": 0.6]).apply(to: frame)
        #expect(maxDifference(frame, expected) <= 1)
        #expect(maxDifference(frame, original) > 16)
    }

    @Test("Bump and pinch match their definitions within 1",
          arguments: [("bump", 0.8), ("bump", -0.6), ("pinch", 1.5)], [Size(41, 31), Size(9, 13)])
    func scaling(filter: (name: String, scale: Double), size: Size) throws {
        let (name, scale) = filter
        let radius = 800.0, center = (x: 0.7 * Double(size.width), y: 0.4 * Double(size.height))
        let r = radius * Double(size.height) / 1080
        let original = Frame.random(width: size.width, height: size.height, seed: 32)
        let expected = expectedRemap(of: original) { x, y in
            let dx = x - center.x, dy = y - center.y, u = (dx * dx + dy * dy).squareRoot() / r
            guard u < 1 else { return nil }
            let factor = name == "bump" ? 1 - scale * pow(1 - u * u, 2) : (u > 0 ? pow(sin(.pi / 2 * u), -scale / 2) : 1)
            return (center.x + factor * dx, center.y + factor * dy)
        }
        let frame = original.clone()
        try Self.filter(name, ["scale": scale, "radius": radius, "centerX": 0.7, "centerY": 0.4]).apply(to: frame)
        #expect(maxDifference(frame, expected) <= 1)
    }

    @Test("Kaleidoscope matches its definition within 1",
          arguments: [(6, 0.0), (5, 2.0), (1, -1.0), (64, 0.1)], [Size(41, 31), Size(6, 5)])
    func kaleidoscope(setting: (count: Int, angle: Double), size: Size) throws {
        let (count, angle) = setting
        let center = (x: 0.45 * Double(size.width), y: 0.55 * Double(size.height))
        let original = Frame.random(width: size.width, height: size.height, seed: 33)
        let wedge = Double.pi / Double(count)
        let expected = expectedRemap(of: original) { x, y in
            let dx = x - center.x, dy = center.y - y, d = (dx * dx + dy * dy).squareRoot()
            // Angle from the wedge's start, folded into 0…2·wedge, then mirrored into 0…wedge.
            var relative = atan2(dy, dx) - angle
            relative -= 2 * wedge * (relative / (2 * wedge)).rounded(.down)
            let source = angle + (relative > wedge ? 2 * wedge - relative : relative)
            return (center.x + d * cos(source), center.y - d * sin(source))
        }
        let frame = original.clone()
        try Self.filter("kaleidoscope", ["count": Double(count), "angle": angle, "centerX": 0.45, "centerY": 0.55])
            .apply(to: frame)
        #expect(maxDifference(frame, expected) <= 1)
    }

    @Test("Every size from 1x1 to 9x9 and odd larger ones runs, on fresh and reused instances; settings away from the identity change the frame")
    func sizeSweep() throws {
        let filters = try [
            Self.filter("twirl", [:]), Self.filter("twirl", ["angle": 25, "radius": 4000, "centerX": 0, "centerY": 1]),
            Self.filter("bump", ["scale": -1, "radius": 60, "centerX": 1, "centerY": 0]), Self.filter("bump", ["radius": 4000]),
            Self.filter("pinch", ["scale": 2, "radius": 2000, "centerX": 0.9]),
            Self.filter("kaleidoscope", [:]), Self.filter("kaleidoscope", ["count": 64, "angle": 6, "centerX": 1, "centerY": 1]),
        ]
        let sizes = (1...9).flatMap { w in (1...9).map { h in Size(w, h) } } + [Size(17, 9), Size(3, 5), Size(127, 33), Size(2, 2)]
        for filter in filters {
            for size in sizes {
                let frame = Frame.random(width: size.width, height: size.height, seed: UInt64(size.width * 16 + size.height))
                filter.apply(to: frame)
                filter.apply(to: frame)
            }
        }
        for filter in filters {
            let original = Frame.random(width: 48, height: 27, seed: 7), frame = original.clone()
            filter.apply(to: frame)
            let changed = frame.samples != original.samples
            #expect(changed, "\(type(of: filter))")
        }
    }

    @Test("A reused instance gives every frame what a fresh one gives, across size changes")
    func reuse() throws {
        let parameters: [(String, [String: Double])] = [("twirl", ["angle": 3]), ("kaleidoscope", ["count": 5])]
        for (name, values) in parameters {
            let reused = try Self.filter(name, values)
            for (seed, size) in [Size(40, 30), Size(40, 30), Size(31, 17), Size(40, 30)].enumerated() {
                let original = Frame.random(width: size.width, height: size.height, seed: UInt64(seed))
                let a = original.clone(), b = original.clone()
                reused.apply(to: a)
                try Self.filter(name, values).apply(to: b)
                #expect(a.samples == b.samples, "\(name) frame \(seed)")
            }
        }
    }
}
