import Dispatch
import Foundation
import Synchronization
import Testing
import FilterKit

/// A counter shared with worker threads, checked on the test's own thread afterwards.
private final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func increment() { value.add(1, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}

@Suite("FilterRunner")
struct FilterRunnerTests {
    /// Runs `body` on a new thread and waits for it.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test("Starts with the selection it was given")
    func initialSelection() throws {
        let sepia = try settings("sepia", ["intensity": 0.5])
        let runner = FilterRunner(selection: FilterSelection(sepia))
        #expect(runner.current == .none, "nothing applied yet")
        let frame = Frame.filled(width: 8, height: 8, y: 128)
        runner.apply(to: frame)
        #expect(runner.current == FilterChain(sepia))
        #expect(frame.v[0, 0] > 128)
        #expect(FilterSelection().chain == .none)
    }

    @Test("A selection changed on another thread is picked up at the next apply")
    func changePickedUpAtNextFrame() throws {
        let selection = FilterSelection()
        let runner = FilterRunner(selection: selection)
        // 135 lines: pixellate scale 24 (1080p pixels) makes blocks of 3.
        let original = Frame.random(width: 17, height: 135, seed: 42)

        let first = original.clone()
        runner.apply(to: first)
        #expect(runner.current == .none)
        #expect(first.samples == original.samples)

        let pixellate = try settings("pixellate", ["scale": 24])
        Self.onAnotherThread { selection.select(FilterChain(pixellate)) }
        #expect(selection.chain == FilterChain(pixellate))
        #expect(runner.current == .none, "nothing changes between frames")

        let second = original.clone()
        runner.apply(to: second)
        #expect(runner.current == FilterChain(pixellate))
        let expected = original.clone()
        PixellateFilter(settings: pixellate).apply(to: expected)
        #expect(expected.samples != original.samples)
        #expect(second.samples == expected.samples)

        // Back to none, again from another thread.
        Self.onAnotherThread { selection.select(.none) }
        let third = original.clone()
        runner.apply(to: third)
        #expect(runner.current == .none)
        #expect(third.samples == original.samples)
    }

    @Test("Frames keep using the selected filter until the selection changes")
    func selectionPersists() throws {
        let comic = try settings("comic", ["levels": 3])
        let runner = FilterRunner(selection: FilterSelection(comic))
        let reference = ComicFilter(settings: comic)
        for seed in 0..<5 as Range<UInt64> {
            let frame = Frame.random(width: 16, height: 9, seed: seed)
            let expected = frame.clone()
            runner.apply(to: frame)
            reference.apply(to: expected)
            #expect(frame.samples == expected.samples)
            #expect(runner.current == FilterChain(comic))
        }
    }

    @Test("Re-selecting the same settings still applies them")
    func reselectSame() throws {
        let sepia = try settings("sepia")
        let selection = FilterSelection(sepia)
        let runner = FilterRunner(selection: selection)
        runner.apply(to: Frame.filled(width: 4, height: 4, y: 100))
        selection.select(FilterChain(sepia))
        let frame = Frame.filled(width: 4, height: 4, y: 100)
        runner.apply(to: frame)
        #expect(runner.current == FilterChain(sepia))
        #expect(frame.u[0, 0] < 128 && frame.v[0, 0] > 128)
    }

    @Test("Concurrent selects while another thread applies", .timeLimit(.minutes(3)))
    func concurrentSelects() throws {
        let choices: [FilterSettings] = [
            .none,
            try settings("sepia", ["intensity": 0.7]),
            try settings("pixellate", ["scale": 3]),
            try settings("comic"),
        ]
        let selection = FilterSelection()
        let selectors = 4, selectsEach = 2_000, frames = 1_500
        let applied = Counter(), unexpected = Counter(), seen = Counter()
        let start = ContinuousClock.now

        DispatchQueue.concurrentPerform(iterations: selectors + 1) { worker in
            if worker == 0 {
                // The pipeline thread: owns the runner and a frame.
                let runner = FilterRunner(selection: selection)
                let frame = Frame.random(width: 16, height: 12, seed: 1)
                for _ in 0..<frames {
                    runner.apply(to: frame)
                    applied.increment()
                    if !choices.map(FilterChain.init).contains(runner.current) { unexpected.increment() }
                }
            } else {
                for i in 0..<selectsEach {
                    selection.select(FilterChain(choices[(worker + i) % choices.count]))
                    if choices.map(FilterChain.init).contains(selection.chain) { seen.increment() }
                }
            }
        }
        #expect(applied.count == frames)
        #expect(unexpected.count == 0)
        #expect(seen.count == selectors * selectsEach)

        // Whatever won the race, the next frame uses the latest selection.
        let latest = try settings("pixellate", ["scale": 2])
        selection.select(FilterChain(latest))
        let runner = FilterRunner(selection: selection)
        runner.apply(to: Frame(width: 4, height: 4))
        #expect(runner.current == FilterChain(latest))
        #expect(ContinuousClock.now - start < .seconds(1))
    }
}

@Suite("FilterRunner warming new links in the background")
struct FilterRunnerWarmingTests {
    /// Signals from the warmer's thread, waited for on the test's.
    final class Readiness: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        func signal() { semaphore.signal() }
        func wait() -> Bool { semaphore.wait(timeout: .now() + 10) == .success }
    }

    static func expected(_ chain: FilterChain, on original: Frame) -> [UInt8] {
        let frame = original.clone()
        FilterRunner(selection: FilterSelection(chain)).apply(to: frame)
        return frame.samples
    }

    @Test("The first chain applies at once; a new one after it is warm, the old one meanwhile")
    func newChainAfterWarmUp() throws {
        let sepia = FilterChain(try settings("sepia")), kaleidoscope = FilterChain(try settings("kaleidoscope"))
        let selection = FilterSelection(sepia), ready = Readiness()
        let runner = FilterRunner(selection: selection, onChainReady: { ready.signal() })
        let original = Frame.random(width: 96, height: 64, seed: 8)

        var frame = original.clone()
        runner.apply(to: frame)
        #expect(frame.samples == Self.expected(sepia, on: original) ? true : false, "nothing to wait for at the start")
        let first = runner.appliedGeneration

        selection.select(kaleidoscope)
        frame = original.clone()
        runner.apply(to: frame)
        #expect(runner.current == sepia && runner.appliedGeneration == first, "still the old chain")
        #expect(frame.samples == Self.expected(sepia, on: original) ? true : false)

        #expect(ready.wait(), "the warmer says when the new chain is ready")
        frame = original.clone()
        runner.apply(to: frame)
        #expect(runner.current == kaleidoscope && runner.appliedGeneration != first)
        #expect(frame.samples == Self.expected(kaleidoscope, on: original) ? true : false)
    }

    @Test("A chain with nothing to warm (a link removed, a colour filter added) applies at once")
    func chainsWithoutTablesNeedNoWarmUp() throws {
        let both = try FilterChain([settings("sepia"), settings("invert")]), invert = FilterChain(try settings("invert"))
        let posterized = try FilterChain([settings("invert"), settings("posterize")])
        let selection = FilterSelection(both)
        let runner = FilterRunner(selection: selection, onChainReady: {})
        let original = Frame.random(width: 32, height: 32, seed: 9)
        runner.apply(to: original.clone())
        for chain in [invert, posterized] {
            selection.select(chain)
            let frame = original.clone()
            runner.apply(to: frame)
            #expect(runner.current == chain)
            #expect(frame.samples == Self.expected(chain, on: original) ? true : false)
        }
    }

    @Test("Quick changes: the picture follows the warm-ups and ends on the last chain")
    func onlyTheLatestIsAdopted() throws {
        let selection = FilterSelection(FilterChain(try settings("sepia"))), ready = Readiness()
        let runner = FilterRunner(selection: selection, onChainReady: { ready.signal() })
        let original = Frame.random(width: 64, height: 48, seed: 10)
        runner.apply(to: original.clone())
        var last = FilterChain.none
        for angle in stride(from: 0.5, through: 2.5, by: 0.5) {
            last = FilterChain(try settings("twirl", ["angle": angle]))
            selection.select(last)
            runner.apply(to: original.clone())
        }
        // A warm chain newer than the one shown is taken even if overtaken; the last comes in the end.
        var frame = original.clone()
        while runner.current != last {
            #expect(ready.wait(), "the last chain gets warm")
            frame = original.clone()
            runner.apply(to: frame)
        }
        #expect(frame.samples == Self.expected(last, on: original) ? true : false)
    }
}

/// A filter that writes its `level` and the level of the filter it inherited from (0 for none)
/// into the first two luma samples of a frame.
private final class HeirFilter: StandaloneFilter {
    static let descriptor = FilterDescriptor(name: "heir", label: "Heir", category: .stylize,
                                             params: [ParameterDescriptor(name: "level", label: "Level", default: 1, min: 1, max: 200, step: 1)])
    let level: UInt8
    private var inherited: UInt8 = 0

    init(settings: FilterSettings) { level = UInt8(settings["level"]) }

    func inherit(from previous: any FrameFilter) { inherited = (previous as? HeirFilter)?.level ?? 255 }

    func apply(to frame: Frame) {
        frame.y.row(0)[0] = level
        frame.y.row(0)[1] = inherited
    }
}

@Suite("FilterRunner inheritance")
struct FilterRunnerInheritanceTests {
    static let catalog = FilterCatalog.standard.adding(FilterCatalog.Entry(HeirFilter.self), category: .stylize)

    static func chain(_ links: [(String, Double)]) throws -> FilterChain {
        try FilterChain(links.map { name, level in
            try FilterSettings(name: name, parameters: name == "heir" ? ["level": .number(level)] : [:], catalog: catalog)
        })
    }

    /// The first two luma samples of a frame each link of `runner`'s chain wrote.
    static func written(_ runner: FilterRunner) -> [UInt8] {
        let frame = Frame.filled(width: 8, height: 8, y: 128)
        runner.apply(to: frame)
        return [frame.y.row(0)[0], frame.y.row(0)[1]]
    }

    @Test("A new link takes over from the link of its name it replaces, each old link once, in order")
    func newLinksInheritFromTheOnesTheyReplace() throws {
        let selection = FilterSelection(try Self.chain([("heir", 1), ("sepia", 0)]))
        let runner = FilterRunner(selection: selection, catalog: Self.catalog)
        #expect(Self.written(runner) == [1, 0], "the first link inherits from none")
        selection.select(try Self.chain([("heir", 2), ("sepia", 0)]))
        #expect(Self.written(runner) == [2, 1])
        // Two new heirs replace one old heir: the first inherits, the second does not.
        selection.select(try Self.chain([("heir", 3), ("heir", 4)]))
        let frame = Frame.filled(width: 8, height: 8, y: 128)
        runner.apply(to: frame)
        #expect([frame.y.row(0)[0], frame.y.row(0)[1]] == [4, 0], "the last link: 4, inherited from none")
        selection.select(try Self.chain([("heir", 4), ("heir", 5)]))
        #expect(Self.written(runner) == [5, 3], "the reused 4 stays; 5 takes over from 3")
    }
}
