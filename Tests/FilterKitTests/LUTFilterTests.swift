@testable import FilterKit
import Foundation
import Testing

/// The `lut` filter: its YUV tables against the LUT applied pixel by pixel in RGB, intensity,
/// bands, odd sizes; the library's names and bounds; the catalog entry that follows the library.
@Suite struct LUTFilterTests {
    /// A non-trivial grade as a 17³ LUT: a contrast curve, a warm cast, crossed channels.
    static let grade: CubeLUT = {
        let size = 17
        var values: [Float] = []
        for b in 0..<size { for g in 0..<size { for r in 0..<size {
            let (x, y, z) = (Float(r) / 16, Float(g) / 16, Float(b) / 16)
            func curve(_ t: Float) -> Float { t * t * (3 - 2 * t) }
            values += [min(1, curve(x) * 0.9 + 0.1 * y + 0.05), curve(y) * 0.95 + 0.05 * z, max(0, curve(z) * 0.8 - 0.05 * x + 0.02)]
        } } }
        return CubeLUT(size: size, values: values)
    }()

    /// One library with the grade, shared: its table is built once for every test.
    static let library: LUTLibrary = {
        let library = LUTLibrary()
        try! library.add(grade, as: "grade")
        try! library.add(.identity(size: 2), as: "identity")
        return library
    }()

    static let catalog = FilterCatalog.standard.adding(library.catalogEntry, category: .colorEffect)

    private func filter(_ lut: String, intensity: Double = 1) throws -> any FrameFilter {
        Self.catalog.makeFilter(try FilterSettings(name: "lut", parameters: ["lut": .choice(lut), "intensity": .number(intensity)],
                                                   catalog: Self.catalog))
    }

    /// What the filter should give, computed the slow way: each pixel to RGB, the LUT, back; each
    /// chroma sample from the LUT at the mean luma of its block.
    private func reference(_ frame: Frame, _ lut: CubeLUT) -> Frame {
        let out = frame.clone()
        func graded(_ y: Double, _ u: Double, _ v: Double) -> (Double, Double, Double) {
            func unit(_ x: Double) -> Float { Float(min(max(x / 255, 0), 1)) }
            let (r, g, b) = lut.tetrahedral(unit(y + 1.402 * (v - 128)), unit(y - 0.344136 * (u - 128) - 0.714136 * (v - 128)),
                                            unit(y + 1.772 * (u - 128)))
            let (rr, gg, bb) = (Double(r) * 255, Double(g) * 255, Double(b) * 255)
            return (0.299 * rr + 0.587 * gg + 0.114 * bb, 128 - 0.168736 * rr - 0.331264 * gg + 0.5 * bb,
                    128 + 0.5 * rr - 0.418688 * gg - 0.081312 * bb)
        }
        func code(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        for cy in 0..<frame.u.height {
            for cx in 0..<frame.u.width {
                let u = Double(frame.u.row(cy)[cx]), v = Double(frame.v.row(cy)[cx])
                let block = [(0, 0), (1, 0), (0, 1), (1, 1)].map { (min(2 * cx + $0, frame.width - 1), min(2 * cy + $1, frame.height - 1)) }
                let mean = (block.map { Int(frame.y.row($0.1)[$0.0]) }.reduce(0, +) + 2) / 4
                let (_, cb, cr) = graded(Double(mean), u, v)
                out.u.row(cy)[cx] = code(cb)
                out.v.row(cy)[cx] = code(cr)
                for (x, y) in block { out.y.row(y)[x] = code(graded(Double(frame.y.row(y)[x]), u, v).0) }
            }
        }
        return out
    }

    /// A smooth picture of in-gamut colours (what natural footage is made of): RGB ramps to YUV.
    private func picture(width: Int, height: Int) -> Frame {
        let frame = Frame(width: width, height: height)
        func code(_ x: Double) -> UInt8 { UInt8(min(max(x.rounded(), 0), 255)) }
        for y in 0..<height {
            for x in 0..<width {
                let r = 255 * Double(x) / Double(max(width - 1, 1)), g = 255 * Double(y) / Double(max(height - 1, 1))
                let b = 255 - (r + g) / 2
                frame.y.row(y)[x] = code(0.299 * r + 0.587 * g + 0.114 * b)
                if x % 2 == 0 && y % 2 == 0 {
                    frame.u.row(y / 2)[x / 2] = code(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
                    frame.v.row(y / 2)[x / 2] = code(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
                }
            }
        }
        return frame
    }

    private func psnr(_ a: Frame, _ b: Frame) -> Double {
        let pairs = zip(a.samples, b.samples)
        let squared = pairs.reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        return 10 * log10(255 * 255 / max(squared / Double(a.samples.count), 1e-9))
    }

    @Test func matchesTheLUTAppliedPixelByPixel() throws {
        for size in [Size(96, 64), Size(17, 11), Size(1, 1), Size(2, 3)] {
            let frame = picture(width: size.width, height: size.height)
            let expected = reference(frame, Self.grade)
            try filter("grade").apply(to: frame)
            let worst = zip(frame.samples, expected.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2 && psnr(frame, expected) >= 50, "\(size): worst \(worst), \(psnr(frame, expected)) dB")
        }
    }

    @Test func theIdentityKeepsThePicture() throws {
        let frame = picture(width: 64, height: 48)
        let original = frame.clone()
        try filter("identity").apply(to: frame)
        let worst = zip(frame.samples, original.samples).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1)
    }

    @Test func intensityMixesWithTheSource() throws {
        let original = picture(width: 32, height: 32)
        let none = original.clone(), half = original.clone(), full = original.clone()
        try filter("grade", intensity: 0).apply(to: none)
        try filter("grade", intensity: 0.5).apply(to: half)
        try filter("grade").apply(to: full)
        #expect(none.samples == original.samples)
        let midway = zip(original.samples, full.samples).map { (Int($0) + Int($1)) / 2 }
        #expect(zip(half.samples, midway).allSatisfy { abs(Int($0) - $1) <= 1 })
        #expect(full.samples != original.samples)
    }

    @Test func bandsGiveTheWholeFrame() throws {
        let lut = try filter("grade", intensity: 0.7)
        for size in [Size(97, 131), Size(6, 200)] {
            let whole = Frame.random(width: size.width, height: size.height, seed: 3)
            let banded = whole.clone()
            lut.apply(to: whole)
            BandScheduler(threads: 3).apply(lut, to: banded)
            #expect(banded.samples == whole.samples, "\(size)")
        }
    }

    @Test func theCatalogOffersTheLibrarysLUTsAsChoices() throws {
        let library = LUTLibrary()
        let catalog = FilterCatalog.standard.adding(library.catalogEntry, category: .colorEffect)
        #expect(!catalog.names.contains("lut"), "no LUT, no filter")
        #expect(throws: FilterError.self) { try FilterSettings(name: "lut", catalog: catalog) }
        try library.add(Self.grade, as: "kodak-2383")
        try library.add(CubeParser.parse(Array("TITLE \"Teal and orange\"\nLUT_3D_SIZE 2\n\(CubeParserTests.identity2)".utf8)), as: "teal")
        let names = catalog.names
        #expect(names.firstIndex(of: "lut")! == names.firstIndex(of: "instant")! + 1, "after the colour effects")
        let lut = try #require(catalog.descriptor(named: "lut"))
        #expect(lut.params.map(\.name) == ["lut", "intensity"])
        #expect(lut.params[0].choices?.map(\.id) == ["kodak-2383", "teal"])
        #expect(lut.params[0].choices?.map(\.label) == ["kodak-2383", "Teal and orange"])
        let settings = try FilterSettings(name: "lut", parameters: ["lut": "teal", "intensity": 0.8], catalog: catalog)
        #expect(settings.choice("lut") == "teal" && settings["intensity"] == 0.8)
        #expect(throws: FilterError.self) { try FilterSettings(name: "lut", parameters: ["lut": "nope"], catalog: catalog) }
        _ = catalog.makeFilter(settings)
    }

    @Test func theLibraryChecksNamesAndIsBounded() throws {
        let library = LUTLibrary()
        for bad in ["", "Upper", "a b", "../x", "x.cube", String(repeating: "a", count: 33), "é"] {
            #expect(throws: LUTLibraryError.badName(bad)) { try library.add(.identity(size: 2), as: bad) }
        }
        try library.add(.identity(size: 2), as: "a")
        #expect(throws: LUTLibraryError.exists("a")) { try library.add(.identity(size: 2), as: "a") }
        for index in 1..<LUTLibrary.capacity { try library.add(.identity(size: 2), as: "l\(index)") }
        #expect(throws: LUTLibraryError.full(LUTLibrary.capacity)) { try library.add(.identity(size: 2), as: "more") }
        #expect(library.count == LUTLibrary.capacity && library.listing.first?.name == "a")
        #expect(LUTLibraryError.full(64).description == "the server holds 64 LUTs, the most it takes")
    }

    @Test func theLibraryKeepsTheTablesOfTheLUTsUsedLast() throws {
        let library = LUTLibrary()
        let catalog = FilterCatalog.standard.adding(library.catalogEntry, category: .colorEffect)
        let count = LUTTableCache.limit + 1
        for index in 0..<count { try library.add(.identity(size: 2), as: "l\(index)") }
        let filters = try (0..<count).map { index in
            catalog.makeFilter(try FilterSettings(name: "lut", parameters: ["lut": .choice("l\(index)")], catalog: catalog))
        }
        let frame = Frame.random(width: 4, height: 4, seed: 1)
        for filter in filters { filter.apply(to: frame) }
        #expect(library.tables.count == LUTTableCache.limit)
        // The one dropped is built again when it is applied again.
        filters[0].apply(to: frame)
        #expect(library.tables.count == LUTTableCache.limit)
    }

    @Test func aLUTRemovedGoesWithItsTableAndAChainBuiltLateGetsTheIdentity() throws {
        let library = LUTLibrary()
        let catalog = FilterCatalog.standard.adding(library.catalogEntry, category: .colorEffect)
        try library.add(Self.grade, as: "grade")
        try library.add(.identity(size: 2), as: "plain")
        let settings = try FilterSettings(name: "lut", parameters: ["lut": "grade"], catalog: catalog)
        let frame = Frame.random(width: 8, height: 8, seed: 3)
        let graded = frame.clone()
        catalog.makeFilter(settings).apply(to: graded)
        #expect(library.tables.count == 1 && graded.samples != frame.samples)
        #expect(library.remove("grade") && !library.remove("grade"))
        #expect(library.tables.count == 0 && library.listing.map(\.name) == ["plain"])
        // The identity LUT's picture (out-of-gamut noise is clipped in RGB: not the frame itself).
        let identity = frame.clone()
        catalog.makeFilter(try FilterSettings(name: "lut", parameters: ["lut": "plain"], catalog: catalog)).apply(to: identity)
        // Validated before the removal, built after it: the identity, never a crash.
        let late = frame.clone()
        catalog.makeFilter(settings).apply(to: late)
        #expect(late.samples == identity.samples && late.samples != graded.samples)
        // The name taken again by another LUT: its own table.
        try library.add(.identity(size: 2), as: "grade")
        let again = frame.clone()
        catalog.makeFilter(try FilterSettings(name: "lut", parameters: ["lut": "grade"], catalog: catalog)).apply(to: again)
        #expect(again.samples == identity.samples)
    }
}
