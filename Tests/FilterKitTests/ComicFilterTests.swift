import Testing
import FilterKit

@Suite("ComicFilter")
struct ComicFilterTests {
    static func comic(levels: Int = 5, edgeThreshold: Double = 0.2) throws -> ComicFilter {
        ComicFilter(settings: try settings("comic", ["levels": Double(levels), "edgeThreshold": edgeThreshold]))
    }

    /// The posterize levels: `levels` tones evenly spread over 0…255.
    static func tones(_ levels: Int) -> [UInt8] {
        (0..<levels).map { UInt8($0 * 255 / (levels - 1)) }
    }

    /// The tone `value` falls into: 0…255 split into `levels` equal bins.
    static func tone(of value: UInt8, levels: Int) -> UInt8 {
        tones(levels)[Int(value) * levels / 256]
    }

    @Test("A vertical step edge is inked along the edge columns, flat areas are not",
          arguments: [5, 16], [Size(16, 8), Size(17, 9), Size(40, 6)])
    func verticalStepEdge(levels: Int, size: Size) throws {
        let frame = Frame.verticalStep(width: size.width, height: size.height, left: 30, right: 220)
        try Self.comic(levels: levels).apply(to: frame)
        let edge = size.width / 2          // first column of the right half
        let left = Self.tone(of: 30, levels: levels), right = Self.tone(of: 220, levels: levels)
        for y in 0..<size.height {
            for x in 0..<size.width {
                let value = frame.y[x, y]
                if x == edge - 1 || x == edge {
                    // The two columns either side of the step; the first and last row have no
                    // neighbours above or below, so the ink there is not specified.
                    if y > 0 && y < size.height - 1 {
                        #expect(value == 0, "edge pixel (\(x), \(y)) should be inked")
                    }
                } else {
                    #expect(value == (x < edge ? left : right), "flat pixel (\(x), \(y)) = \(value)")
                }
            }
        }
    }

    @Test("Ink is distinguishable from the darkest tone")
    func inkIsNotJustDarkTone() throws {
        // With 16 levels, Y=30 posterizes to 17, not 0: the zeros are ink.
        #expect(Self.tone(of: 30, levels: 16) == 17)
        #expect(Self.tone(of: 220, levels: 16) == 221)
        let frame = Frame.verticalStep(width: 12, height: 5, left: 30, right: 220)
        try Self.comic(levels: 16).apply(to: frame)
        for y in 0..<5 {
            let zeros = (0..<12).filter { frame.y[$0, y] == 0 }
            #expect(zeros == ((1...3).contains(y) ? [5, 6] : []), "row \(y)")
        }
    }

    @Test("A horizontal step edge is inked along the edge rows", arguments: [Size(8, 16), Size(9, 17)])
    func horizontalStepEdge(size: Size) throws {
        let frame = Frame.horizontalStep(width: size.width, height: size.height, top: 220, bottom: 30)
        try Self.comic(levels: 16).apply(to: frame)
        let edge = size.height / 2
        for y in 0..<size.height {
            for x in 1..<(size.width - 1) {
                let expected = y == edge - 1 || y == edge ? 0 : Self.tone(of: y < edge ? 220 : 30, levels: 16)
                #expect(frame.y[x, y] == expected, "(\(x), \(y))")
            }
        }
    }

    @Test("Flat frames get no ink, only their posterize tone", arguments: [2, 5, 16])
    func flatFramesHaveNoInk(levels: Int) throws {
        let filter = try Self.comic(levels: levels, edgeThreshold: 0.02)
        for value in stride(from: 0, through: 255, by: 15).map(UInt8.init) {
            let frame = Frame.filled(width: 9, height: 7, y: value)
            filter.apply(to: frame)
            let expected = Self.tone(of: value, levels: levels)
            #expect(frame.y.samples.allSatisfy { $0 == expected }, "Y=\(value): \(frame.y.samples)")
        }
    }

    @Test("Luma posterizes to exactly `levels` evenly spaced tones", arguments: [2, 3, 5, 8, 16])
    func posterizeLevels(levels: Int) throws {
        // A gentle ramp (1 per column) has a Sobel response of 8, far below any allowed threshold.
        let frame = Frame.filled(width: 256, height: 3, y: 0)
        for y in 0..<3 { for x in 0..<256 { frame.y[x, y] = UInt8(x) } }
        try Self.comic(levels: levels, edgeThreshold: 0.02).apply(to: frame)
        let allowed = Set(Self.tones(levels))
        #expect(allowed.count == levels)
        #expect(allowed.contains(0) && allowed.contains(255))
        for y in 0..<3 {
            let row = (0..<256).map { frame.y[$0, y] }
            #expect(row.allSatisfy(allowed.contains), "row \(y)")
            #expect(Set(row) == allowed, "every tone is used")
            #expect(zip(row, row.dropFirst()).allSatisfy { $0 <= $1 }, "tones rise with luma")
            #expect(row == (0..<256).map { Self.tone(of: UInt8($0), levels: levels) })
        }
    }

    @Test("edgeThreshold decides which steps are inked")
    func threshold() throws {
        // A 10-level step: Sobel |gx| = 4 × 10 = 40, i.e. 40 / 1020 ≈ 0.039 of a full step.
        func inkedColumns(_ threshold: Double) throws -> [Int] {
            let frame = Frame.verticalStep(width: 10, height: 5, left: 120, right: 130)
            try Self.comic(levels: 16, edgeThreshold: threshold).apply(to: frame)
            return (0..<10).filter { frame.y[$0, 2] == 0 }
        }
        #expect(try inkedColumns(0.02) == [4, 5])
        #expect(try inkedColumns(0.035) == [4, 5])
        #expect(try inkedColumns(0.045) == [])
        #expect(try inkedColumns(0.2) == [])
    }

    @Test("Chroma is pushed away from neutral by 5/4 and clipped")
    func chromaBoost() throws {
        let frame = Frame.filled(width: 10, height: 2, y: 128)
        let input: [UInt8] = [0, 28, 96, 127, 128, 129, 160, 200, 228, 255]
        // The chroma planes are 5×1: Cb gets the first five inputs, Cr the rest.
        for x in 0..<5 {
            frame.u[x, 0] = input[x]
            frame.v[x, 0] = input[x + 5]
        }
        try Self.comic().apply(to: frame)
        #expect(frame.u.samples == [0, 3, 88, 127, 128])
        #expect(frame.v.samples == [129, 168, 218, 253, 255])
    }

    @Test("Tiny frames are posterized without ink", arguments: [Size(1, 1), Size(2, 2), Size(3, 1), Size(1, 3), Size(2, 9)])
    func tinyFrames(size: Size) throws {
        let frame = Frame.random(width: size.width, height: size.height, seed: 3)
        let original = frame.clone()
        try Self.comic(levels: 16, edgeThreshold: 0.02).apply(to: frame)
        for y in 0..<size.height {
            for x in 0..<size.width {
                #expect(frame.y[x, y] == Self.tone(of: original.y[x, y], levels: 16))
            }
        }
    }

    @Test("One instance follows frame size changes")
    func sizeChanges() throws {
        let filter = try Self.comic()
        for size in [Size(17, 11), Size(8, 8), Size(17, 11), Size(64, 3)] {
            let reused = Frame.random(width: size.width, height: size.height, seed: 17)
            let fresh = reused.clone()
            filter.apply(to: reused)
            try Self.comic().apply(to: fresh)
            #expect(reused.samples == fresh.samples, "\(size)")
        }
    }
}
