import Foundation
import Testing
@testable import FilterKit

private func motionBlur(pixels: Double, height: Int, angle: Double) throws -> MotionBlurFilter {
    MotionBlurFilter(settings: try FilterSettings(name: "motionBlur",
                                                  parameters: ["radius": pixels * 1080 / Double(height), "angle": angle]))
}

/// The rounded mean of the `2·radius + 1` samples of the line `x = x0 + shift(y)` through each
/// sample, coordinates clamped to the plane: what ``BoxBlurKernel/blurAlongLines`` computes.
private func referenceLineBlur(_ plane: Plane, radius: Int, slope: Double) -> [UInt8] {
    var result: [UInt8] = []
    let shift = { (row: Int) in BoxBlurKernel.shift(row: row, slope: slope) }
    for y in 0..<plane.height {
        for x in 0..<plane.width {
            var sum = 0
            for t in -radius...radius {
                let sx = min(max(x + shift(y + t) - shift(y), 0), plane.width - 1)
                sum += Int(plane[sx, min(max(y + t, 0), plane.height - 1)])
            }
            let count = 2 * radius + 1
            result.append(UInt8((sum + count / 2) / count))
        }
    }
    return result
}

@Suite("Motion blur")
struct MotionBlurFilterTests {
    static let angles = [0, Double.pi / 2, Double.pi / 4, -Double.pi / 4, 0.3, -1.2, 2.5, Double.pi, -Double.pi]

    @Test("The line kernel equals a brute-force rounded mean along each line, exactly, also in bands",
          arguments: [0, 1, -1, 0.5, -0.3, 0.999, 1e-3], [1, 2, 5, 40])
    func lineKernel(slope: Double, radius: Int) {
        for size in [Size(17, 11), Size(7, 5), Size(2, 3), Size(1, 1), Size(1, 9), Size(9, 1), Size(40, 23)] {
            let frame = Frame.random(width: size.width, height: size.height, seed: UInt64(radius * 7 + size.width))
            let source = frame.y
            let expected = referenceLineBlur(source, radius: radius, slope: slope)
            let whole = Frame(width: size.width, height: size.height), banded = Frame(width: size.width, height: size.height)
            let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: size.width + size.height)
            defer { sums.deallocate() }
            BoxBlurKernel.blurAlongLines(source, into: whole.y, radius: radius, slope: slope, lineSums: sums,
                                         rows: 0..<size.height)
            #expect(whole.y.samples.elementsEqual(expected), "slope \(slope) radius \(radius) \(size)")
            let middle = size.height / 2
            for band in [0..<middle, middle..<size.height] {
                BoxBlurKernel.blurAlongLines(source, into: banded.y, radius: radius, slope: slope, lineSums: sums, rows: band)
            }
            #expect(banded.y.samples.elementsEqual(expected), "bands, slope \(slope) radius \(radius) \(size)")
        }
    }

    @Test("Radius 0 gives the input back bit-exact, at every angle", arguments: angles)
    func identity(angle: Double) throws {
        let filter = MotionBlurFilter(settings: try FilterSettings(name: "motionBlur", parameters: ["radius": 0, "angle": angle]))
        for size in Size.testSizes + [Size(64, 36)] {
            let original = Frame.random(width: size.width, height: size.height, seed: 4)
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(frame.samples == original.samples, "angle \(angle) \(size)")
        }
    }

    /// A dot spreads along the direction only: angle 0 is horizontal, π/2 vertical, π/4 up and
    /// to the right (y up, as in Core Image); every lit sample holds 255 / (2r + 1).
    @Test("A dot becomes a line in the direction of the angle",
          arguments: [(0.0, 1, 0), (Double.pi / 2, 0, -1), (Double.pi / 4, 1, -1), (-Double.pi / 4, 1, 1),
                      (Double.pi, 1, 0), (3 * Double.pi / 4, 1, 1)])
    func direction(angle: Double, dx: Int, dy: Int) throws {
        let size = 121, centre = 60, radius = 8.0
        let frame = Frame.filled(width: size, height: size, y: 0)
        frame.y[centre, centre] = 255
        try motionBlur(pixels: radius, height: size, angle: angle).apply(to: frame)
        let steps = Int((radius * (dx != 0 && dy != 0 ? 0.5.squareRoot() : 1)).rounded())
        let value = UInt8((255 + steps) / (2 * steps + 1))
        var lit = Set<[Int]>()
        for k in -steps...steps { lit.insert([centre + k * dx, centre + k * dy]) }
        for y in 0..<size {
            for x in 0..<size {
                if frame.y[x, y] != (lit.contains([x, y]) ? value : 0) { Issue.record("angle \(angle): \(frame.y[x, y]) at (\(x), \(y))") }
            }
        }
    }

    @Test("Radii are pixels of a 1080-line frame: the same blur at 1080 and at 540 lines, chroma at half")
    func scaling() throws {
        let filter = MotionBlurFilter(settings: try FilterSettings(name: "motionBlur", parameters: ["radius": 20, "angle": 0.2]))
        #expect(filter.steps(pixels: Frame(width: 4, height: 1080).pixels(fromReference: 20)) == 20)
        #expect(filter.steps(pixels: Frame(width: 4, height: 540).pixels(fromReference: 20)) == 10)
        // A row with one bright sample: at 540 lines it spreads over 2·10 + 1 samples, chroma 2·5 + 1.
        let frame = Frame.filled(width: 64, height: 540, y: 0, u: 0, v: 0)
        frame.y[32, 270] = 210
        frame.u[16, 135] = 110
        try motionBlur(pixels: 10, height: 540, angle: 0).apply(to: frame)
        #expect((0..<64).filter { frame.y[$0, 270] > 0 } == Array(22...42))
        #expect((0..<32).filter { frame.u[$0, 135] > 0 } == Array(11...21))
    }

    @Test("Flat frames stay flat and the mean is kept within ±1, at every angle", arguments: angles)
    func flatAndMean(angle: Double) throws {
        for size in [Size(17, 11), Size(2, 3), Size(1, 1), Size(64, 36)] {
            let flat = Frame.filled(width: size.width, height: size.height, y: 201, u: 17, v: 240)
            try motionBlur(pixels: Double(size.height) / 10.8, height: size.height, angle: angle).apply(to: flat)
            #expect(flat.y.samples.allSatisfy { $0 == 201 } && flat.u.samples.allSatisfy { $0 == 17 }
                    && flat.v.samples.allSatisfy { $0 == 240 }, "angle \(angle) \(size)")
        }
        let original = Frame.random(width: 256, height: 192, seed: 8)
        let frame = original.clone()
        try motionBlur(pixels: 6, height: 192, angle: angle).apply(to: frame)
        for (before, after) in zip(original.planes, frame.planes) {
            let mean = { (plane: Plane) in Double(plane.samples.reduce(0) { $0 + Int($1) }) / Double(plane.samples.count) }
            #expect(abs(mean(after) - mean(before)) <= 1, "angle \(angle)")
        }
        #expect(frame.samples != original.samples)
    }
}
