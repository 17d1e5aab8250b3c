@testable import StyleKit
import Testing

/// The resampler around the network, on planes whose right result is known: both pass orders (down
/// first when reducing, across first when enlarging) and the triangle's windows.
struct PlaneResamplerTests {
    /// `plane` (`from.width × from.height` values, row by row) resampled to `to`, row by row.
    static func resample(_ plane: [Float], from: (width: Int, height: Int), to: (width: Int, height: Int)) -> [Float] {
        let resampler = PlaneResampler(from: from, to: to)
        var result: [Float] = []
        var rows: [Int] = []
        plane.withUnsafeBufferPointer { plane in
            resampler.resample({ plane.baseAddress! + $0 * from.width }, as: { $0 }) { row, values in
                rows.append(row)
                result += values
            }
        }
        #expect(rows == Array(0..<to.height), "rows handed in order, once each")
        return result
    }

    static let sizes: [((Int, Int), (Int, Int))] = [((1280, 720), (320, 180)), ((320, 180), (1280, 720)),
                                                    ((640, 360), (320, 180)), ((320, 180), (640, 360)), ((7, 5), (3, 2)),
                                                    ((3, 2), (7, 5)), ((64, 36), (64, 36)), ((1, 1), (4, 4))]

    @Test("a flat plane stays flat", arguments: sizes.indices)
    func flatStaysFlat(_ index: Int) {
        let (from, to) = Self.sizes[index]
        let result = Self.resample(Array(repeating: 77, count: from.0 * from.1), from: from, to: to)
        #expect(result.count == to.0 * to.1)
        #expect(result.allSatisfy { abs($0 - 77) < 1e-3 }, "\(from) → \(to): \(result.min()!)…\(result.max()!)")
    }

    @Test("a ramp across stays the ramp away from the edges, sampled at the new positions", arguments: sizes.indices)
    func rampStaysARamp(_ index: Int) {
        let (from, to) = Self.sizes[index]
        let plane = (0..<from.1).flatMap { _ in (0..<from.0).map(Float.init) }
        let result = Self.resample(plane, from: from, to: to)
        let scale = Float(from.0) / Float(to.0), margin = Int((2 / min(1, scale)).rounded(.up)) + 1
        for y in 0..<to.1 { for x in margin..<max(margin, to.0 - margin) {
            let expected = (Float(x) + 0.5) * scale - 0.5
            #expect(abs(result[y * to.0 + x] - expected) < 1e-3, "\(from) → \(to) at \(x),\(y)")
        } }
    }

    @Test("reducing 4 to 1 averages: a checkerboard becomes its mean, no aliasing")
    func reductionAverages() {
        let plane = (0..<720).flatMap { y in (0..<1280).map { x in Float((x + y) % 2 == 0 ? 0 : 200) } }
        let result = Self.resample(plane, from: (1280, 720), to: (320, 180))
        #expect(result.allSatisfy { abs($0 - 100) < 1 }, "\(result.min()!)…\(result.max()!)")
    }

    @Test("a window weighs only the samples the triangle covers: two when enlarging")
    func windows() {
        #expect(AxisWeights(from: 320, to: 1280).taps == 2)
        #expect(AxisWeights(from: 1280, to: 320).taps == 8)
        #expect(AxisWeights(from: 640, to: 320).taps == 4)
        let weights = AxisWeights(from: 320, to: 1280)
        for index in 0..<1280 {
            let row = weights.weights[index * 2 ..< index * 2 + 2]
            #expect(abs(row.reduce(0, +) - 1) < 1e-6 && row.allSatisfy { $0 >= 0 })
        }
    }
}
