import Testing
import FilterKit

@Suite("SepiaFilter")
struct SepiaFilterTests {
    /// Sepia of a grey, from the classic matrix, clipped in RGB and expressed in full-range
    /// BT.601: what the filter should produce at intensity 1 on a uniform grey frame.
    static func referenceTone(grey: Int) -> (y: Double, cb: Double, cr: Double) {
        let g = Double(grey)
        let r = min(255, 0.393 * g + 0.769 * g + 0.189 * g)
        let gr = min(255, 0.349 * g + 0.686 * g + 0.168 * g)
        let b = min(255, 0.272 * g + 0.534 * g + 0.131 * g)
        let y = 0.299 * r + 0.587 * gr + 0.114 * b
        return (y, 128 + (b - y) / 1.772, 128 + (r - y) / 1.402)
    }

    static func sepia(_ intensity: Double) throws -> SepiaFilter {
        SepiaFilter(settings: try settings("sepia", ["intensity": intensity]))
    }

    @Test("Intensity 0 leaves a grey frame neutral and unchanged", arguments: [0, 16, 100, 128, 235, 255])
    func intensityZeroOnGrey(grey: Int) throws {
        let frame = Frame.filled(width: 7, height: 5, y: UInt8(grey))
        try Self.sepia(0).apply(to: frame)
        #expect(frame.y.samples.allSatisfy { $0 == UInt8(grey) })
        #expect(frame.u.samples.allSatisfy { $0 == 128 })
        #expect(frame.v.samples.allSatisfy { $0 == 128 })
    }

    @Test("Intensity 1 turns grey into the sepia tone (±1)", arguments: [0, 1, 30, 64, 128, 188, 200, 255])
    func fullSepiaOnGrey(grey: Int) throws {
        let expected = Self.referenceTone(grey: grey)
        for size in [Size(8, 8), Size(7, 5)] {
            let frame = Frame.filled(width: size.width, height: size.height, y: UInt8(grey))
            try Self.sepia(1).apply(to: frame)
            #expect(frame.y.samples.allSatisfy { abs(Double($0) - expected.y) <= 1 }, "Y \(frame.y[0, 0]) vs \(expected.y)")
            #expect(frame.u.samples.allSatisfy { abs(Double($0) - expected.cb) <= 1 }, "Cb \(frame.u[0, 0]) vs \(expected.cb)")
            #expect(frame.v.samples.allSatisfy { abs(Double($0) - expected.cr) <= 1 }, "Cr \(frame.v[0, 0]) vs \(expected.cr)")
        }
    }

    @Test("Intensity 1 gives a warm tone: Cb < 128 and Cr > 128 for greys")
    func warmTone() throws {
        let filter = try Self.sepia(1)
        for grey in 1...255 {
            let frame = Frame.filled(width: 2, height: 2, y: UInt8(grey))
            filter.apply(to: frame)
            let cb = frame.u[0, 0], cr = frame.v[0, 0]
            #expect(cb <= 128 && cr >= 128, "grey \(grey): Cb \(cb) Cr \(cr)")
            if (32...224).contains(grey) {
                #expect(cb < 128 && cr > 128, "grey \(grey): Cb \(cb) Cr \(cr)")
            }
        }
        // Mid grey, explicitly: well into brown, brighter than the input.
        let mid = Frame.filled(width: 4, height: 4, y: 128)
        filter.apply(to: mid)
        #expect(mid.u[0, 0] < 118)
        #expect(mid.v[0, 0] > 135)
        #expect(mid.y[0, 0] > 128)
    }

    @Test("Output luma is monotonic in input luma", arguments: [0.25, 0.5, 1])
    func lumaIsMonotonic(intensity: Double) throws {
        // 256×2: column x has luma x.
        let frame = Frame.filled(width: 256, height: 2, y: 0)
        for row in 0..<2 {
            for x in 0..<256 { frame.y[x, row] = UInt8(x) }
        }
        try Self.sepia(intensity).apply(to: frame)
        for row in 0..<2 {
            let luma = (0..<256).map { frame.y[$0, row] }
            #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 <= $1 }, "row \(row): \(luma)")
            #expect(luma.first! < luma.last!)
        }
    }

    @Test("Intensity 0.5 lies between the original and full sepia", arguments: [20, 64, 128, 200, 250])
    func halfIntensityIsBetween(grey: Int) throws {
        func filtered(_ intensity: Double) throws -> (y: Int, cb: Int, cr: Int) {
            let frame = Frame.filled(width: 4, height: 4, y: UInt8(grey))
            try Self.sepia(intensity).apply(to: frame)
            return (Int(frame.y[0, 0]), Int(frame.u[0, 0]), Int(frame.v[0, 0]))
        }
        let none = try filtered(0), half = try filtered(0.5), full = try filtered(1)
        func between(_ value: Int, _ a: Int, _ b: Int) -> Bool { min(a, b) <= value && value <= max(a, b) }
        #expect(between(half.y, none.y, full.y), "Y \(none.y) … \(half.y) … \(full.y)")
        #expect(between(half.cb, none.cb, full.cb), "Cb \(none.cb) … \(half.cb) … \(full.cb)")
        #expect(between(half.cr, none.cr, full.cr), "Cr \(none.cr) … \(half.cr) … \(full.cr)")
        // Halfway, within rounding: the blend is taken before rounding, so half may differ by one
        // from the rounded mean of the two rounded ends.
        #expect(abs(2 * half.y - none.y - full.y) <= 2)
        #expect(abs(2 * half.cb - none.cb - full.cb) <= 2, "Cb \(none.cb) … \(half.cb) … \(full.cb)")
        #expect(abs(2 * half.cr - none.cr - full.cr) <= 2, "Cr \(none.cr) … \(half.cr) … \(full.cr)")
        // Strictly between where sepia changes the colour noticeably.
        if full.cr - none.cr >= 4 {
            #expect(none.cr < half.cr && half.cr < full.cr)
            #expect(full.cb < half.cb && half.cb < none.cb)
        }
    }

    @Test("At intensity 1 the output depends on luma only", arguments: Size.testSizes)
    func fullSepiaIgnoresInputChroma(size: Size) throws {
        let a = Frame.random(width: size.width, height: size.height, seed: 21)
        let b = Frame.random(width: size.width, height: size.height, seed: 22)
        b.y.copy(from: a.y)
        let filter = try Self.sepia(1)
        filter.apply(to: a)
        filter.apply(to: b)
        #expect(a.samples == b.samples)
    }

    @Test("Chroma follows the 2×2 block's mean luma")
    func chromaUsesBlockMean() throws {
        // Each 2×2 block holds 100, 100, 156, 156 (mean 128); the result must match mid grey.
        let checker = Frame.filled(width: 6, height: 4, y: 100)
        for row in 0..<4 where row % 2 == 1 { checker.y.row(row).update(repeating: 156, count: 6) }
        let grey = Frame.filled(width: 6, height: 4, y: 128)
        let filter = try Self.sepia(1)
        filter.apply(to: checker)
        filter.apply(to: grey)
        #expect(checker.u.samples == grey.u.samples)
        #expect(checker.v.samples == grey.v.samples)
    }
}
