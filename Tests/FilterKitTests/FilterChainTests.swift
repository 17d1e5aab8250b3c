import Synchronization
import Testing
import FilterKit

/// A filter that records every time it is built and adds `amount` to the luma, so that a test
/// can see both which links were rebuilt and that links run in order.
private final class CountingFilter: StandaloneFilter {
    static let descriptor = FilterDescriptor(name: "counting", label: "Counting", category: .colorAdjustment, params: [
        ParameterDescriptor(name: "amount", label: "Amount", type: .integer, default: 1, min: 0, max: 50, step: 1),
    ])
    /// The `amount` of every instance built, in order (only one test uses this filter).
    static let builds = Mutex<[Double]>([])
    private let amount: UInt8

    init(settings: FilterSettings) {
        amount = UInt8(settings["amount"])
        Self.builds.withLock { $0.append(settings["amount"]) }
    }

    func apply(to frame: Frame) {
        for y in 0..<frame.y.height {
            let row = frame.y.row(y)
            for x in 0..<frame.y.width { row[x] = row[x] &+ amount }
        }
    }
}

@Suite("FilterChain")
struct FilterChainTests {
    @Test func noneIsTheEmptyChain() throws {
        #expect(FilterChain.none.links.isEmpty)
        #expect(FilterChain(FilterSettings.none) == .none)
        #expect(try FilterChain([.none]) == .none)
        #expect(try FilterChain([]) == .none)
        #expect(FilterChain.none.first == .none && FilterChain.none.description == "none")
        let sepia = try settings("sepia")
        #expect(FilterChain(sepia).links == [sepia] && FilterChain(sepia).first == sepia)
    }

    @Test func holdsUpToEightLinksInOrder() throws {
        let links = try (0..<FilterChain.maximumLength).map { try settings("pixellate", ["scale": Double($0 + 2)]) }
        let chain = try FilterChain(links)
        #expect(chain.links == links && chain.first == links[0])
        #expect(try FilterChain([settings("invert"), settings("invert")]).links.count == 2, "a filter may repeat")
        let tooLong = #expect(throws: FilterError.self) { try FilterChain(links + [try settings("invert")]) }
        #expect(tooLong == .chainTooLong(count: 9, maximum: 8))
        #expect(tooLong?.description == "a filter chain has at most 8 filters, got 9")
    }

    @Test func refusesNoneAmongOtherLinks() throws {
        let error = #expect(throws: FilterError.self) { try FilterChain([try settings("invert"), .none]) }
        #expect(error == .noneInChain(index: 1, count: 2))
        #expect(error?.description.contains("'none'") == true)
    }

    @Test func validatingNamesTheLinkThatFailed() throws {
        let chain = try FilterChain(validating: [("invert", [:], .all), ("sepia", ["intensity": 0.5], .all)])
        #expect(chain.links == [try settings("invert"), try settings("sepia", ["intensity": 0.5])])
        let unknown = #expect(throws: FilterError.self) { try FilterChain(validating: [("invert", [:], .all), ("nope", [:], .all)]) }
        #expect(unknown == .inChain(index: 1, .unknownFilter("nope", known: FilterCatalog.standard.names)))
        #expect(unknown?.description.hasPrefix("chain link 1: unknown filter 'nope'") == true)
        let range = #expect(throws: FilterError.self) { try FilterChain(validating: [("sepia", ["intensity": 2], .all)]) }
        #expect(range?.description == "chain link 0: sepia.intensity must be a number in 0…1, got 2")
        #expect(throws: FilterError.chainTooLong(count: 9, maximum: 8)) {
            try FilterChain(validating: Array(repeating: ("invert", [:], .all), count: 9))
        }
    }

    @Test func replacingParametersChangesOneLink() throws {
        let chain = try FilterChain([settings("sepia", ["intensity": 0.5]), settings("pixellate", ["scale": 4])])
        let changed = try chain.replacingParameters(at: 1, with: ["scale": 9])
        #expect(changed.links == [try settings("sepia", ["intensity": 0.5]), try settings("pixellate", ["scale": 9])])
        #expect(throws: FilterError.self) { try chain.replacingParameters(at: 0, with: ["scale": 9]) }
        #expect(throws: FilterError.self) { try chain.replacingParameters(at: 1, with: ["scale": 1e9]) }
        // The empty chain has one addressable link, `none`, which takes no parameters.
        #expect(FilterChain.none.addressableCount == 1 && chain.addressableCount == 2)
        #expect(try FilterChain.none.replacingParameters(at: 0, with: [:]) == .none)
        #expect(throws: FilterError.self) { try FilterChain.none.replacingParameters(at: 0, with: ["x": 1]) }
        #expect(chain.description == "sepia(intensity=0.5) → pixellate(scale=4)")
    }

    @Test func runnerAppliesTheLinksInOrder() throws {
        let invert = try settings("invert"), sepia = try settings("sepia")
        let original = Frame.random(width: 17, height: 11, seed: 9)
        let expected = original.clone()
        InvertFilter(settings: invert).apply(to: expected)
        SepiaFilter(settings: sepia).apply(to: expected)
        let chained = original.clone()
        FilterRunner(selection: FilterSelection(try FilterChain([invert, sepia]))).apply(to: chained)
        #expect(chained.samples == expected.samples)

        let reversed = original.clone()
        FilterRunner(selection: FilterSelection(try FilterChain([sepia, invert]))).apply(to: reversed)
        let sepiaOnly = original.clone()
        SepiaFilter(settings: sepia).apply(to: sepiaOnly)
        #expect(reversed.samples != chained.samples, "order matters")
        #expect(chained.samples != sepiaOnly.samples)
    }

    @Test func runnerRebuildsOnlyTheLinksThatChanged() throws {
        let catalog = FilterCatalog([FilterCatalog.Entry(NoFilter.self), FilterCatalog.Entry(CountingFilter.self)])
        func link(_ amount: Double) throws -> FilterSettings {
            try FilterSettings(name: "counting", parameters: ["amount": amount], catalog: catalog)
        }
        func builds() -> [Double] { CountingFilter.builds.withLock { $0 } }
        let selection = FilterSelection(try FilterChain([link(1), link(2)]))
        let runner = FilterRunner(selection: selection, catalog: catalog)
        let frame = Frame.filled(width: 4, height: 2, y: 10)
        runner.apply(to: frame)
        #expect(builds() == [1, 2])
        #expect(frame.y[0, 0] == 13)
        let first = runner.appliedGeneration

        // A slider on link 1 rebuilds link 1 only, and the frame after it is marked.
        selection.select(try FilterChain([link(1), link(5)]))
        runner.apply(to: frame)
        #expect(builds() == [1, 2, 5])
        #expect(frame.y[0, 0] == 19)
        #expect(runner.appliedGeneration == first + 1)
        runner.apply(to: frame)
        #expect(runner.appliedGeneration == first + 1, "no change, no new generation")

        // Appending, removing the first link and repeating a link reuse what was built.
        selection.select(try FilterChain([link(1), link(5), link(7)]))
        runner.apply(to: frame)
        selection.select(try FilterChain([link(5), link(7)]))
        runner.apply(to: frame)
        selection.select(try FilterChain([link(5), link(7), link(5)]))
        runner.apply(to: frame)
        #expect(builds() == [1, 2, 5, 7, 5], "only new settings are built; a repeated link gets its own instance")
        #expect(runner.current == (try FilterChain([link(5), link(7), link(5)])))

        // Re-selecting the same chain is a new generation (the server marks the frame) without a rebuild.
        let generation = runner.appliedGeneration
        selection.select(try FilterChain([link(5), link(7), link(5)]))
        runner.apply(to: frame)
        #expect(runner.appliedGeneration == generation + 1 && builds().count == 5)
        selection.select(.none)
        runner.apply(to: frame)
        #expect(runner.current == .none && builds().count == 5)
    }
}
