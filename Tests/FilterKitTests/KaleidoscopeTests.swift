import Foundation
import Testing
import FilterKit

/// kaleidoscope: Core Image's parameters, `count`-fold symmetry, mirrors and the wedge it shows.
@Suite("Kaleidoscope")
struct KaleidoscopeTests {
    static func kaleidoscope(_ parameters: [String: Double]) throws -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try settings("kaleidoscope", parameters))
    }

    @Test("Descriptor: count 6, angle 0, centre in the middle; no identity")
    func descriptor() throws {
        let descriptor = KaleidoscopeFilter.descriptor
        #expect(descriptor.name == "kaleidoscope" && descriptor.category == .distortion)
        #expect(descriptor.params.map(\.name) == ["count", "angle", "centerX", "centerY"])
        let count = try #require(descriptor.parameter(named: "count"))
        #expect((count.type, count.default, count.min, count.max, count.identity) == (.integer, 6, 1, 64, nil))
        let angle = try #require(descriptor.parameter(named: "angle"))
        #expect((angle.type, angle.default, angle.identity) == (.angle, 0, nil))
    }

    @Test("Turning the output by 2π/count about the centre gives it back (within rounding)",
          arguments: [2, 4, 8], [0.0, 0.3, -2])
    func rotationalSymmetry(count: Int, angle: Double) throws {
        // A square frame centred on a pixel corner: quarter and half turns map pixels onto pixels.
        let frame = Frame.random(width: 64, height: 64, seed: 21)
        try Self.kaleidoscope(["count": Double(count), "angle": angle]).apply(to: frame)
        // 4- and 8-fold symmetric pictures are symmetric under a quarter turn, 2-fold under a half.
        expectTurned(frame, quarterTurns: count == 2 ? 2 : 1)
    }

    private func expectTurned(_ frame: Frame, quarterTurns: Int) {
        var worst = 0
        for y in 0..<64 {
            for x in 0..<64 {
                var (tx, ty) = (x, y)
                for _ in 0..<quarterTurns { (tx, ty) = (ty, 63 - tx) }
                worst = max(worst, abs(Int(frame.y[x, y]) - Int(frame.y[tx, ty])))
            }
        }
        #expect(worst <= 1)
    }

    @Test("The output is mirrored across the line at `angle` through the centre",
          arguments: [(0.0, true), (Double.pi / 2, false)], [3, 6])
    func mirrorSymmetry(line: (angle: Double, horizontal: Bool), count: Int) throws {
        let frame = Frame.random(width: 64, height: 64, seed: 22)
        try Self.kaleidoscope(["count": Double(count), "angle": line.angle]).apply(to: frame)
        var worst = 0
        for y in 0..<64 {
            for x in 0..<64 {
                let (mx, my) = line.horizontal ? (x, 63 - y) : (63 - x, y)
                worst = max(worst, abs(Int(frame.y[x, y]) - Int(frame.y[mx, my])))
            }
        }
        #expect(worst <= 1)
    }

    @Test("Every output pixel shows the wedge from `angle` to `angle` + π/count",
          arguments: [(6, 0.0), (6, 1.0), (5, -2.5), (1, 0.5)])
    func showsTheWedge(count: Int, angle: Double) throws {
        let center = (x: 60.0, y: 45.0)
        // 200 inside the wedge (angles counterclockwise on screen, so y points up), 40 elsewhere.
        let frame = Frame.pattern(width: 120, height: 90, center: center) { dx, dy in
            var relative = atan2(-dy, dx) - angle
            relative -= 2 * .pi * (relative / (2 * .pi)).rounded(.down)
            return relative <= .pi / Double(count) ? 200 : 40
        }
        let before = frame.y.samples.filter { $0 == 200 }.count
        try Self.kaleidoscope(["count": Double(count), "angle": angle]).apply(to: frame)
        let after = frame.y.samples.filter { $0 == 200 }.count
        #expect(before < frame.y.samples.count * 2 / 3)
        #expect(after > frame.y.samples.count * 9 / 10, "\(after) of \(frame.y.samples.count)")
    }

    @Test("The centre pixel keeps its value; moving the centre moves the symmetry")
    func centre() throws {
        let original = Frame.random(width: 33, height: 25, seed: 8)
        let frame = original.clone()
        try Self.kaleidoscope(["count": 7, "angle": 0.4]).apply(to: frame)
        #expect(frame.y[16, 12] == original.y[16, 12])
        // Centred on pixel (8, 6) of a 32×24 frame's left-top quarter (a pixel corner at 0.25, 0.25).
        let offCentre = Frame.random(width: 32, height: 24, seed: 9)
        try Self.kaleidoscope(["count": 2, "centerX": 0.25, "centerY": 0.25]).apply(to: offCentre)
        for (x, y) in [(9, 7), (10, 3), (3, 2)] {
            #expect(abs(Int(offCentre.y[x, y]) - Int(offCentre.y[15 - x, 11 - y])) <= 1)
        }
    }
}
