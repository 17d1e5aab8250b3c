import FilterKit
@testable import MatteKit
import Testing

/// Any filter on the person or the background only: the link applied to the whole picture, then
/// mixed with its input by the matte (``RegionFilter``), as the runner applies a chain.
@Suite struct RegionFilterTests {
    static let catalog = MatteCatalog.adding(to: .standard, engine: .success(engine))

    /// `chain` applied to a copy of `source` by a runner of `threads` threads.
    private func applied(_ chain: [(name: String, parameters: [String: ParameterValue], region: FilterRegion)],
                         to source: Frame, threads: Int) throws -> Frame {
        let frame = Frame(width: source.width, height: source.height)
        frame.copy(from: source)
        let runner = FilterRunner(selection: FilterSelection(try FilterChain(validating: chain, catalog: Self.catalog)),
                                  catalog: Self.catalog, threads: threads)
        runner.apply(to: frame)
        return frame
    }

    /// The mean change of the three planes from `source` to `output` in the box (fractions).
    private func change(_ output: Frame, from source: Frame, _ box: (x: ClosedRange<Double>, y: ClosedRange<Double>)) -> Double {
        (0..<3).map { index in
            let before = output.plane(index), after = source.plane(index)
            let difference = (0..<before.height).flatMap { row in
                (0..<before.width).map { UInt8(abs(Int(before.row(row)[$0]) - Int(after.row(row)[$0]))) }
            }
            return difference.withUnsafeBufferPointer {
                mean($0.baseAddress!, width: before.width, height: before.height, x: box.x, y: box.y)
            }
        }.reduce(0, +)
    }

    @Test(arguments: [1, 2])
    func sepiaOnTheBackgroundLeavesThePersonAndChangesTheBackground(threads: Int) throws {
        let source = try photograph("messi5.jpg", width: 1280, height: 720)
        let everywhere = try applied([("sepia", [:], .all)], to: source, threads: threads)
        let background = try applied([("sepia", [:], .background)], to: source, threads: threads)
        let person = try applied([("sepia", [:], .person)], to: source, threads: threads)
        let body = MatteEngineTests.person
        #expect(change(everywhere, from: source, body) > 10, "sepia changes the person where it applies")
        #expect(change(background, from: source, body) < 1)
        #expect(change(person, from: source, body) > 0.9 * change(everywhere, from: source, body))
        for patch in MatteEngineTests.background {
            let whole = change(everywhere, from: source, patch)
            #expect(change(background, from: source, patch) > 0.9 * whole)
            #expect(change(person, from: source, patch) < 0.1 * whole)
        }
    }

    /// A filter of several passes split over threads (a blur) on the person only.
    @Test func aBlurOnThePersonOnlyKeepsTheBackground() throws {
        let source = try photograph("messi5.jpg", width: 1280, height: 720)
        let blurred = try applied([("gaussianBlur", ["radius": .number(30)], .person)], to: source, threads: 2)
        #expect(change(blurred, from: source, MatteEngineTests.person) > 3)
        for patch in MatteEngineTests.background { #expect(change(blurred, from: source, patch) < 1) }
    }

    /// Two region links and a matte filter in one chain: one matte for the frame.
    @Test func theLinksOfAChainShareTheFramesMatte() throws {
        let local = try MatteEngine(root: engine.root)
        let catalog = MatteCatalog.adding(to: .standard, engine: .success(local))
        let frame = try photograph("messi5.jpg", width: 320, height: 180)
        let chain = try FilterChain(validating: [("sepia", [:], .background), ("backgroundBlur", [:], .all),
                                                 ("invert", [:], .person)], catalog: catalog)
        #expect(chain.links.map(\.region) == [.background, .all, .person])
        FilterRunner(selection: FilterSelection(chain), catalog: catalog).apply(to: frame)
        #expect(local.averageCosts?.frames == 1)
    }

    /// Links on `all` only make no matte at all.
    @Test func aChainOnTheWholePictureMakesNoMatte() throws {
        let local = try MatteEngine(root: engine.root)
        let catalog = MatteCatalog.adding(to: .standard, engine: .success(local))
        let frame = try photograph("messi5.jpg", width: 320, height: 180)
        let chain = try FilterChain(validating: [("sepia", [:], .all), ("invert", [:], .all)], catalog: catalog)
        FilterRunner(selection: FilterSelection(chain), catalog: catalog).apply(to: frame)
        #expect(local.averageCosts == nil)
    }

    @Test func theCatalogSaysWhichRegionsExist() throws {
        #expect(Self.catalog.regions == [.all, .person, .background])
        #expect(FilterCatalog.standard.regions == nil)
        #expect(throws: FilterError.regionUnavailable(filter: "sepia", region: .person)) {
            try FilterSettings(name: "sepia", parameters: [:], region: .person)
        }
        // `none` on a region is still no filter (no matte made for it).
        #expect(try FilterChain(validating: [("none", [:], .person)], catalog: Self.catalog) == .none)
        // setParams keeps the link's region.
        let chain = try FilterChain(validating: [("sepia", [:], .background)], catalog: Self.catalog)
        let changed = try chain.replacingParameters(at: 0, with: ["intensity": .number(0.5)], catalog: Self.catalog)
        #expect(changed.links[0].region == .background && changed.links[0]["intensity"] == 0.5)
        #expect(changed != (try FilterChain(validating: [("sepia", ["intensity": .number(0.5)], .all)], catalog: Self.catalog)))
    }
}
