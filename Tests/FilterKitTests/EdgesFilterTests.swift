import Testing
import FilterKit

/// CIEdges written out sample by sample: the Sobel sum of the original luma (coordinates
/// clamped) times intensity / 4, clamped; chroma scaled by the mean new luma of its 2×2 pixels.
private func referenceEdges(_ original: Frame, intensity: Double) -> Frame {
    let result = original.clone(), luma = original.y, width = luma.width, height = luma.height
    func at(_ x: Int, _ y: Int) -> Int { Int(luma[min(max(x, 0), width - 1), min(max(y, 0), height - 1)]) }
    let gain = Int((intensity * 1024).rounded())
    for y in 0..<height {
        for x in 0..<width {
            let gx = at(x + 1, y - 1) + 2 * at(x + 1, y) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x - 1, y) - at(x - 1, y + 1)
            let gy = at(x - 1, y + 1) + 2 * at(x, y + 1) + at(x + 1, y + 1) - at(x - 1, y - 1) - 2 * at(x, y - 1) - at(x + 1, y - 1)
            result.y[x, y] = UInt8(min(((abs(gx) + abs(gy)) * gain + 2048) >> 12, 255))
        }
    }
    for plane in [result.u, result.v] {
        for j in 0..<plane.height {
            for i in 0..<plane.width {
                let xs = Set([2 * i, min(2 * i + 1, width - 1)]), ys = Set([2 * j, min(2 * j + 1, height - 1)])
                var sum = 0
                for x in xs { for y in ys { sum += Int(result.y[x, y]) } }
                let strength = (sum + xs.count * ys.count / 2) / (xs.count * ys.count)
                plane[i, j] = UInt8(128 + (((Int(plane[i, j]) - 128) * strength + 128) >> 8))
            }
        }
    }
    return result
}

@Suite("Edges")
struct EdgesFilterTests {
    static func edges(_ intensity: Double) throws -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try settings("edges", ["intensity": intensity]))
    }

    @Test("Equals the written-out Sobel and tint, exactly, on random frames of odd and tiny sizes",
          arguments: [0.0, 0.5, 1, 3.3, 10])
    func reference(intensity: Double) throws {
        let filter = try Self.edges(intensity)
        for size in Size.testSizes + [Size(2, 2), Size(3, 5), Size(17, 9), Size(64, 36)] {
            let original = Frame.random(width: size.width, height: size.height, seed: UInt64(size.width * 3 + size.height))
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(frame.samples == referenceEdges(original, intensity: intensity).samples, "\(intensity) \(size)")
        }
    }

    @Test("A black-to-white step is a white edge two pixels wide at intensity 1, half as bright at 0.5")
    func step() throws {
        for (intensity, value) in [(1.0, 255), (0.5, 128), (0.2, 51)] as [(Double, UInt8)] {
            let frame = Frame.verticalStep(width: 16, height: 8, left: 0, right: 255)
            try Self.edges(intensity).apply(to: frame)
            for y in 0..<8 {
                #expect((0..<16).map { frame.y[$0, y] } == (0..<16).map { $0 == 7 || $0 == 8 ? value : 0 }, "\(intensity)")
            }
            #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 })
        }
    }

    @Test("Flat areas are black and colourless; a colour edge keeps its colour")
    func colour() throws {
        let frame = Frame.filled(width: 32, height: 16, y: 40, u: 90, v: 220)
        for y in 0..<16 { for x in 16..<32 { frame.y[x, y] = 200 } }
        try Self.edges(1).apply(to: frame)
        #expect(frame.y[4, 8] == 0 && frame.u[2, 4] == 128 && frame.v[2, 4] == 128)
        #expect(frame.y[15, 8] == 160 && frame.y[16, 8] == 160)
        // The chroma sample over pixels 16, 17 (edge strength (160 + 0) / 2 = 80).
        let (u, v) = (Int(frame.u[8, 4]), Int(frame.v[8, 4]))
        #expect(u == 128 + ((90 - 128) * 80 + 128) >> 8 && v == 128 + ((220 - 128) * 80 + 128) >> 8, "\(u), \(v)")
    }
}
