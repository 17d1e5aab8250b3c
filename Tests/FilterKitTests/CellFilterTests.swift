import Testing
import FilterKit

/// hexagonalPixellate, crystallize and pointillize against a brute-force model: every sample
/// takes the rounded mean of the input samples whose centres have the same nearest cell centre
/// (luma and chroma separately; a chroma sample's centre is the middle of the luma pixels it
/// covers), and pointillize's background is white.
@Suite("Cell filters")
struct CellFilterTests {
    /// The expected output: sample (x, y) of each plane takes the mean of its cell in `original`;
    /// `cell(x, y)` (luma coordinates) is the cell of a point, nil for the background. A filter
    /// whose length comes to less than one pixel (`pixels`) leaves the frame as it is.
    static func model(_ original: Frame, pixels: Double, cell: (Double, Double) -> Int?) -> [UInt8] {
        guard pixels >= 1 else { return original.samples }
        let background: [UInt8] = [255, 128, 128]
        return original.planes.enumerated().flatMap { index, plane -> [UInt8] in
            let step = index == 0 ? 1 : 2
            func centre(_ i: Int, _ length: Int) -> Double { Double(i * step) + Double(min(step, length - i * step)) / 2 }
            var cells: [Int?] = [], sums: [Int: (sum: Int, count: Int)] = [:]
            for y in 0..<plane.height {
                for x in 0..<plane.width {
                    let c = cell(centre(x, original.width), centre(y, original.height))
                    cells.append(c)
                    if let c { sums[c, default: (0, 0)].sum += Int(plane[x, y]); sums[c, default: (0, 0)].count += 1 }
                }
            }
            return cells.map { c in
                guard let c, let (sum, count) = sums[c] else { return background[index] }
                return UInt8((Double(sum) / Double(count)).rounded())
            }
        }
    }

    /// The index of the point of `points` nearest to (x, y), searching them all; of equally
    /// near points, the first.
    /// Distances are squared, computed as the filters do, so that ties are ties on both sides.
    static func nearest(_ points: [(x: Double, y: Double)], _ x: Double, _ y: Double) -> (index: Int, squaredDistance: Double) {
        var best = (index: 0, squaredDistance: Double.infinity)
        for (index, point) in points.enumerated() {
            let dx = x - point.x, dy = y - point.y
            let distance = dx * dx + dy * dy
            if distance < best.squaredDistance { best = (index, distance) }
        }
        return best
    }

    /// Hexagon centres around a `width`×`height` frame: rows `spacing·√3/2` apart, odd rows
    /// shifted by half a spacing, one centre at `origin`; top to bottom, then left to right, so
    /// that ``nearest(_:_:_:)`` breaks ties as the filter does (upper, then left).
    static func hexagonCentres(spacing: Double, origin: (x: Double, y: Double), width: Int, height: Int) -> [(x: Double, y: Double)] {
        let rowHeight = spacing * 3.squareRoot() / 2
        let rows = Int((Double(height) / rowHeight).rounded(.up)) + 2, columns = Int((Double(width) / spacing).rounded(.up)) + 2
        let row0 = Int((origin.y / rowHeight).rounded(.up)) + 1, column0 = Int((origin.x / spacing).rounded(.up)) + 1
        var centres: [(x: Double, y: Double)] = []
        for j in -row0...(rows - row0) {
            for i in -column0...(columns - column0) {
                centres.append((origin.x + (Double(i) + (j & 1 == 0 ? 0 : 0.5)) * spacing, origin.y + Double(j) * rowHeight))
            }
        }
        return centres
    }

    struct Case: Sendable, CustomStringConvertible {
        let size: Size
        let length: Double
        let center: (x: Double, y: Double)
        var description: String { "\(size), \(length), center (\(center.x), \(center.y))" }
    }

    /// Odd and tiny sizes; lengths (1080p pixels) that make cells a few pixels wide at that height,
    /// or under a pixel (3x5, 2x2, 1x1: the frame is left as it is).
    static let cases = [
        Case(size: Size(64, 135), length: 100, center: (0.5, 0.5)), Case(size: Size(33, 135), length: 60, center: (0.2, 0.9)),
        Case(size: Size(17, 9), length: 200, center: (0.5, 0.5)), Case(size: Size(3, 5), length: 200, center: (0, 1)),
        Case(size: Size(2, 2), length: 200, center: (1, 0)), Case(size: Size(40, 270), length: 50, center: (0.75, 0.3)),
        Case(size: Size(1, 1), length: 200, center: (0.5, 0.5)), Case(size: Size(21, 216), length: 30, center: (0, 0)),
        Case(size: Size(3, 11), length: 200, center: (0, 1)), Case(size: Size(2, 7), length: 200, center: (1, 0)),
        Case(size: Size(1, 9), length: 200, center: (0.5, 0.5)),
    ]

    static func parameters(_ length: String, _ c: Case) -> [String: Double] {
        [length: c.length, "centerX": c.center.x, "centerY": c.center.y]
    }

    @Test("hexagonalPixellate: the mean of each regular hexagon, spacing = scale", arguments: cases)
    func hexagons(_ c: Case) throws {
        let original = Frame.random(width: c.size.width, height: c.size.height, seed: 11)
        let frame = original.clone()
        FilterCatalog.standard.makeFilter(try settings("hexagonalPixellate", Self.parameters("scale", c))).apply(to: frame)
        let scale = frame.pixels(fromReference: c.length)
        let centres = Self.hexagonCentres(spacing: scale,
                                          origin: frame.point(atFractionX: c.center.x, y: c.center.y),
                                          width: c.size.width, height: c.size.height)
        #expect(frame.samples == Self.model(original, pixels: scale) { Self.nearest(centres, $0, $1).index })
    }

    @Test("crystallize: the mean of each Voronoi cell of the jittered grid, spacing = 2 × radius", arguments: cases)
    func crystals(_ c: Case) throws {
        let original = Frame.random(width: c.size.width, height: c.size.height, seed: 12)
        let frame = original.clone()
        FilterCatalog.standard.makeFilter(try settings("crystallize", Self.parameters("radius", c))).apply(to: frame)
        let radius = frame.pixels(fromReference: c.length)
        let grid = JitteredGrid(spacing: 2 * radius, origin: frame.point(atFractionX: c.center.x, y: c.center.y),
                                width: c.size.width, height: c.size.height)
        #expect(frame.samples == Self.model(original, pixels: radius) { Self.nearest(grid.points, $0, $1).index })
    }

    @Test("pointillize: discs of the radius around the grid's points, white between them", arguments: cases)
    func dots(_ c: Case) throws {
        let original = Frame.random(width: c.size.width, height: c.size.height, seed: 13)
        let frame = original.clone()
        FilterCatalog.standard.makeFilter(try settings("pointillize", Self.parameters("radius", c))).apply(to: frame)
        let radius = frame.pixels(fromReference: c.length)
        let grid = JitteredGrid(spacing: 2 * radius, origin: frame.point(atFractionX: c.center.x, y: c.center.y),
                                width: c.size.width, height: c.size.height)
        #expect(frame.samples == Self.model(original, pixels: radius) { x, y in
            let (index, distance) = Self.nearest(grid.points, x, y)
            return distance <= radius * radius ? index : nil
        })
    }

    @Test("Lengths under one pixel of the frame leave it unchanged (and build no cells): 4096x2 at radius 1.5",
          arguments: ["hexagonalPixellate", "crystallize", "pointillize"])
    func subPixelCells(name: String) throws {
        let length = try #require(FilterCatalog.standard.descriptor(named: name)?.params.first?.name)
        let original = Frame.random(width: 4096, height: 2, seed: 8)
        let frame = original.clone()
        // 1.5 × 2 / 1080 of a pixel: cells spaced that finely would number in the hundreds of millions.
        FilterCatalog.standard.makeFilter(try settings(name, [length: 1.5])).apply(to: frame)
        #expect(frame.samples == original.samples)
    }

    @Test("The grid's points stay within the jitter of their squares' centres, and vary")
    func gridPoints() {
        let grid = JitteredGrid(spacing: 10, origin: (50, 40), width: 100, height: 80)
        var offsets = Set<Int>()
        for point in grid.points {
            // The square holding the point's undisturbed centre.
            let i = ((point.x - grid.corner.x) / 10 - 0.5).rounded(), j = ((point.y - grid.corner.y) / 10 - 0.5).rounded()
            let dx = (point.x - grid.corner.x) / 10 - i - 0.5, dy = (point.y - grid.corner.y) / 10 - j - 0.5
            #expect(abs(dx) <= JitteredGrid.jitter && abs(dy) <= JitteredGrid.jitter)
            offsets.insert(Int((dx * 100).rounded()))
        }
        #expect(grid.points.count >= 10 * 8)
        #expect(offsets.count > 20, "offsets should look random")
    }

    @Test("The cells stay put: same picture on every frame and for a new instance", arguments: ["hexagonalPixellate", "crystallize", "pointillize"])
    func deterministic(name: String) throws {
        let original = Frame.random(width: 96, height: 270, seed: 3)
        let filter = FilterCatalog.standard.makeFilter(try settings(name))
        let first = original.clone(), second = original.clone(), fresh = original.clone()
        filter.apply(to: first)
        filter.apply(to: second)
        FilterCatalog.standard.makeFilter(try settings(name)).apply(to: fresh)
        #expect(first.samples != original.samples)
        #expect(second.samples == first.samples && fresh.samples == first.samples)
    }

    @Test("Lengths scale with the frame: as many cells across at 270 lines as at 540",
          arguments: ["hexagonalPixellate", "crystallize", "pointillize"])
    func cellsScaleWithTheFrame(name: String) throws {
        // On a diagonal ramp neighbouring cells have different means: count the changes along
        // the middle row and the middle column.
        func changes(width: Int, height: Int) throws -> Int {
            let frame = Frame(width: width, height: height)
            for y in 0..<height { for x in 0..<width { frame.y[x, y] = UInt8(x * 128 / width + y * 127 / height) } }
            FilterCatalog.standard.makeFilter(try settings(name)).apply(to: frame)
            let row = (0..<width).map { frame.y[$0, height / 2] }, column = (0..<height).map { frame.y[width / 2, $0] }
            return zip(row, row.dropFirst()).filter { $0 != $1 }.count + zip(column, column.dropFirst()).filter { $0 != $1 }.count
        }
        let small = try changes(width: 480, height: 270), large = try changes(width: 960, height: 540)
        #expect(small > 10 && abs(small - large) <= small / 4, "\(small) vs \(large) changes")
    }
}
