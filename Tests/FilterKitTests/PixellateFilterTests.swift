import Testing
import FilterKit

/// Pixellate's `scale` is in pixels of a 1080-line frame, so the block tests use heights that
/// divide 1080 (135 = 1080 / 8, 108 = 1080 / 10) and the scale that gives a whole block size.
@Suite("PixellateFilter")
struct PixellateFilterTests {
    /// A filter whose blocks are `block` pixels on frames `height` lines high.
    static func pixellate(block: Int, height: Int) throws -> PixellateFilter {
        try #require(1080 % height == 0 && block * 1080 / height <= 100, "no whole scale for \(block) px at \(height) lines")
        return PixellateFilter(settings: try settings("pixellate", ["scale": Double(block * 1080 / height)]))
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

    /// Every sample of `plane` replaced by the mean of its group in `source`.
    static func expected(_ source: Plane, group: (Int, Int) -> [Int]) -> [UInt8] {
        let means = means(of: source, group: group)
        return (0..<source.height).flatMap { y in (0..<source.width).map { x in means[group(x, y)]! } }
    }

    @Test("The block size is the scale in 1080p pixels, rounded, at least 1; scale 1 is always off",
          arguments: [(8.0, 1080, 8), (8, 540, 4), (8, 2160, 16), (8, 720, 5), (8, 100, 1), (100, 11, 1),
                      (2, 2160, 4), (1, 2160, 1), (1, 4320, 1), (3, 360, 1)])
    func blockSizeScalesWithHeight(scale: Double, height: Int, block: Int) throws {
        let filter = PixellateFilter(settings: try settings("pixellate", ["scale": scale]))
        #expect(filter.blockSize(in: Frame(width: 2, height: height)) == block)
    }

    @Test("Every luma block is its original block's rounded mean, aligned to the top-left",
          arguments: [2, 3, 5, 8, 10], [Size(17, 135), Size(16, 108), Size(7, 135), Size(24, 108)])
    func lumaBlocks(block: Int, size: Size) throws {
        let original = Frame.random(width: size.width, height: size.height, seed: UInt64(block))
        let frame = original.clone()
        try Self.pixellate(block: block, height: size.height).apply(to: frame)

        let group = { (x: Int, y: Int) in [x / block, y / block] }
        // Blocks at the right and bottom edges are cut to fit: ceil(size / block) per axis.
        #expect(Self.means(of: original.y, group: group).count
            == ((size.width + block - 1) / block) * ((size.height + block - 1) / block))
        #expect(frame.y.samples == Self.expected(original.y, group: group))
    }

    @Test("Chroma is one value per block: the mean of the samples whose luma origin is in the block",
          arguments: [2, 3, 5, 8], [Size(17, 135), Size(16, 108), Size(7, 135)])
    func chromaBlocks(block: Int, size: Size) throws {
        let original = Frame.random(width: size.width, height: size.height, seed: 99 + UInt64(block))
        let frame = original.clone()
        try Self.pixellate(block: block, height: size.height).apply(to: frame)

        // Chroma sample (cx, cy) sits at luma (2cx, 2cy).
        let group = { (cx: Int, cy: Int) in [2 * cx / block, 2 * cy / block] }
        #expect(frame.u.samples == Self.expected(original.u, group: group))
        #expect(frame.v.samples == Self.expected(original.v, group: group))
    }

    @Test("With an even block size every luma block shows one colour",
          arguments: [2, 4, 8], [Size(17, 135), Size(16, 108)])
    func evenBlocksHaveOneColour(block: Int, size: Size) throws {
        let frame = Frame.random(width: size.width, height: size.height, seed: 1234)
        try Self.pixellate(block: block, height: size.height).apply(to: frame)
        var colours: [[Int]: [UInt8]] = [:]
        for y in 0..<size.height {
            for x in 0..<size.width {
                let colour = [frame.y[x, y], frame.u[x / 2, y / 2], frame.v[x / 2, y / 2]]
                let key = [x / block, y / block]
                if let seen = colours[key] {
                    #expect(seen == colour, "pixel (\(x), \(y)) differs from the rest of block \(key)")
                } else {
                    colours[key] = colour
                }
            }
        }
    }

    @Test("Scale 8 on a 4×270 frame (blocks of 2): hand-checked values")
    func handCheckedBlocksOfTwo() throws {
        let frame = Frame.filled(width: 4, height: 270, y: 0, u: 10, v: 20)
        // Block 0: 0, 1, 2, 4 → mean 1.75 → 2. Block 1: 10, 11, 20, 20 → 15.25 → 15.
        let luma: [[UInt8]] = [[0, 1, 10, 11], [2, 4, 20, 20]]
        for y in 0..<2 { for x in 0..<4 { frame.y[x, y] = luma[y][x] } }
        frame.u[1, 0] = 30
        try Self.pixellate(block: 2, height: 270).apply(to: frame)
        #expect(Array(frame.y.samples[..<8]) == [2, 2, 15, 15, 2, 2, 15, 15])
        #expect(frame.y.samples[8...].allSatisfy { $0 == 0 })
        // One chroma sample per 2×2 block: nothing to average.
        #expect(Array(frame.u.samples[..<2]) == [10, 30])
        #expect(frame.u.samples[2...].allSatisfy { $0 == 10 })
        #expect(frame.v.samples.allSatisfy { $0 == 20 })
    }

    @Test("Scale 50 on 7×108 (blocks of 5): edge blocks cut to fit")
    func handCheckedEdgeBlocks() throws {
        let frame = Frame.filled(width: 7, height: 108, y: 0)
        for y in 0..<108 { for x in 0..<7 { frame.y[x, y] = UInt8(10 * x + y) } }
        try Self.pixellate(block: 5, height: 108).apply(to: frame)
        // Columns 0–4 and 5–6: x part 10·2 and 10·5.5. Rows 5k…5k+4: y part 5k + 2; the last
        // block, rows 105–107: 106.
        #expect(Array(frame.y.samples[0..<7]) == [22, 22, 22, 22, 22, 57, 57])
        #expect(Array(frame.y.samples[(9 * 7)..<(10 * 7)]) == [27, 27, 27, 27, 27, 62, 62])
        #expect(Array(frame.y.samples[(107 * 7)...]) == [126, 126, 126, 126, 126, 161, 161])
    }

    @Test("The same scale gives blocks in proportion to the height: 4 px at 540 lines, 16 at 2160")
    func blocksFollowTheHeight() throws {
        let filter = PixellateFilter(settings: try settings("pixellate", ["scale": 8]))
        for (height, block) in [(540, 4), (2160, 16)] {
            let frame = Frame(width: 2, height: height)
            for y in 0..<height { frame.y.row(y).update(repeating: UInt8(y % 251), count: 2) }
            filter.apply(to: frame)
            // Down the first column: runs of `block` equal values, each different from the last.
            let column = (0..<height).map { frame.y[0, $0] }
            for y in 0..<height where y % block != 0 {
                #expect(column[y] == column[y - 1], "row \(y) at \(height) lines")
            }
            for y in Swift.stride(from: block, to: height, by: block) {
                #expect(column[y] != column[y - 1], "row \(y) starts a block at \(height) lines")
            }
        }
    }

    @Test("Pixellating twice changes nothing more", arguments: [2, 3, 8])
    func idempotent(block: Int) throws {
        let frame = Frame.random(width: 17, height: 135, seed: 77)
        let filter = try Self.pixellate(block: block, height: 135)
        filter.apply(to: frame)
        let once = frame.samples
        filter.apply(to: frame)
        #expect(frame.samples == once)
    }

    @Test("One instance follows frame size changes")
    func sizeChanges() throws {
        let filter = try Self.pixellate(block: 3, height: 135)
        for size in [Size(17, 135), Size(8, 270), Size(7, 5), Size(17, 135), Size(1, 1), Size(9, 1080)] {
            let reused = Frame.random(width: size.width, height: size.height, seed: 5)
            let fresh = reused.clone()
            filter.apply(to: reused)
            try Self.pixellate(block: 3, height: 135).apply(to: fresh)
            #expect(reused.samples == fresh.samples, "\(size)")
        }
    }
}
