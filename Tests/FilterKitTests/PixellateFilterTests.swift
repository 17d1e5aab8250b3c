import Testing
import FilterKit

@Suite("PixellateFilter")
struct PixellateFilterTests {
    static func pixellate(_ scale: Int) throws -> PixellateFilter {
        PixellateFilter(settings: try settings("pixellate", ["scale": Double(scale)]))
    }

    /// The rounded mean of each group of samples, keyed by group.
    static func means(of plane: Plane, group: (Int, Int) -> [Int]) -> [[Int]: UInt8] {
        var sums: [[Int]: (sum: Int, count: Int)] = [:]
        for y in 0..<plane.height {
            for x in 0..<plane.width {
                sums[group(x, y), default: (0, 0)].sum += Int(plane[x, y])
                sums[group(x, y), default: (0, 0)].count += 1
            }
        }
        return sums.mapValues { UInt8((Double($0.sum) / Double($0.count)).rounded()) }
    }

    @Test("Every luma block is its original block's rounded mean, aligned to the top-left",
          arguments: [2, 3, 5, 8, 100], [Size(17, 11), Size(16, 16), Size(7, 5), Size(24, 9)])
    func lumaBlocks(scale: Int, size: Size) throws {
        let original = Frame.random(width: size.width, height: size.height, seed: UInt64(scale))
        let frame = original.clone()
        try Self.pixellate(scale).apply(to: frame)

        let block = { (x: Int, y: Int) in [x / scale, y / scale] }
        let expected = Self.means(of: original.y, group: block)
        // Blocks at the right and bottom edges are cut to fit: ceil(size / scale) per axis.
        #expect(expected.count == ((size.width + scale - 1) / scale) * ((size.height + scale - 1) / scale))
        for y in 0..<size.height {
            for x in 0..<size.width {
                #expect(frame.y[x, y] == expected[block(x, y)], "luma (\(x), \(y)) in block \(block(x, y))")
            }
        }
    }

    @Test("Chroma is one value per block: the mean of the samples whose luma origin is in the block",
          arguments: [2, 3, 5, 8], [Size(17, 11), Size(16, 16), Size(7, 5)])
    func chromaBlocks(scale: Int, size: Size) throws {
        let original = Frame.random(width: size.width, height: size.height, seed: 99 + UInt64(scale))
        let frame = original.clone()
        try Self.pixellate(scale).apply(to: frame)

        // Chroma sample (cx, cy) sits at luma (2cx, 2cy).
        let block = { (cx: Int, cy: Int) in [2 * cx / scale, 2 * cy / scale] }
        for (filtered, source) in [(frame.u, original.u), (frame.v, original.v)] {
            let expected = Self.means(of: source, group: block)
            for cy in 0..<source.height {
                for cx in 0..<source.width {
                    #expect(filtered[cx, cy] == expected[block(cx, cy)], "chroma (\(cx), \(cy)) in block \(block(cx, cy))")
                }
            }
        }
    }

    @Test("With an even scale every luma block shows one colour", arguments: [2, 4, 8], [Size(17, 11), Size(16, 16)])
    func evenScaleBlocksHaveOneColour(scale: Int, size: Size) throws {
        let frame = Frame.random(width: size.width, height: size.height, seed: 1234)
        try Self.pixellate(scale).apply(to: frame)
        var colours: [[Int]: [UInt8]] = [:]
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour = [frame.y[x, y], frame.u[x / 2, y / 2], frame.v[x / 2, y / 2]]
                let key = [x / scale, y / scale]
                if let seen = colours[key] {
                    #expect(seen == colour, "pixel (\(x), \(y)) differs from the rest of block \(key)")
                } else {
                    colours[key] = colour
                }
            }
        }
    }

    @Test("Scale 2 on an exact 4×2 frame: hand-checked values")
    func handCheckedScaleTwo() throws {
        let frame = Frame.filled(width: 4, height: 2, y: 0, u: 10, v: 20)
        // Block 0: 0, 1, 2, 4 → mean 1.75 → 2. Block 1: 10, 11, 20, 20 → 15.25 → 15.
        let luma: [[UInt8]] = [[0, 1, 10, 11], [2, 4, 20, 20]]
        for y in 0..<2 { for x in 0..<4 { frame.y[x, y] = luma[y][x] } }
        frame.u[1, 0] = 30
        try Self.pixellate(2).apply(to: frame)
        #expect(frame.y.samples == [2, 2, 15, 15, 2, 2, 15, 15])
        // One chroma sample per 2×2 block: nothing to average.
        #expect(frame.u.samples == [10, 30])
        #expect(frame.v.samples == [20, 20])
    }

    @Test("Scale 3 on 7×5: edge blocks cut to fit")
    func handCheckedEdgeBlocks() throws {
        let frame = Frame.filled(width: 7, height: 5, y: 0)
        for y in 0..<5 { for x in 0..<7 { frame.y[x, y] = UInt8(10 * x + y) } }
        try Self.pixellate(3).apply(to: frame)
        // Columns 0–2, 3–5, 6; rows 0–2, 3–4. Block means: x part 10, 40, 60; y part 1, 3.5.
        let expected: [[UInt8]] = [[11, 41, 61], [14, 44, 64]]   // 3.5 rounds up
        for y in 0..<5 {
            for x in 0..<7 {
                #expect(frame.y[x, y] == expected[y / 3][x / 3], "(\(x), \(y))")
            }
        }
    }

    @Test("Pixellating twice changes nothing more", arguments: [2, 3, 8])
    func idempotent(scale: Int) throws {
        let frame = Frame.random(width: 17, height: 11, seed: 77)
        let filter = try Self.pixellate(scale)
        filter.apply(to: frame)
        let once = frame.samples
        filter.apply(to: frame)
        #expect(frame.samples == once)
    }

    @Test("One instance follows frame size changes")
    func sizeChanges() throws {
        let filter = try Self.pixellate(3)
        for size in [Size(17, 11), Size(8, 8), Size(7, 5), Size(17, 11), Size(1, 1)] {
            let reused = Frame.random(width: size.width, height: size.height, seed: 5)
            let fresh = reused.clone()
            filter.apply(to: reused)
            try Self.pixellate(3).apply(to: fresh)
            #expect(reused.samples == fresh.samples, "\(size)")
        }
    }
}
