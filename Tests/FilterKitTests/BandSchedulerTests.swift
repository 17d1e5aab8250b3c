import Testing
@testable import FilterKit

@Suite("Band scheduler")
struct BandSchedulerTests {
    @Test("Bands cover every row once, start on even rows, and are never thinner than needed")
    func bandPartition() {
        for height in [1, 2, 3, 31, 64, 65, 131, 1080, 2161] {
            for threads in 1...8 {
                let scheduler = BandScheduler(threads: threads)
                let count = scheduler.bandCount(forHeight: height)
                #expect(count >= 1 && count <= threads)
                let bands = (0..<count).map { BandScheduler.rows(ofBand: $0, count: count, height: height) }
                #expect(bands.first?.lowerBound == 0 && bands.last?.upperBound == height)
                for (band, next) in zip(bands, bands.dropFirst()) { #expect(band.upperBound == next.lowerBound) }
                for band in bands {
                    #expect(band.lowerBound % 2 == 0 && !band.isEmpty, "height \(height), \(count) bands: \(band)")
                }
            }
        }
    }

    @Test("A band view reads and writes its parent's rows and the chroma rows under them")
    func bandView() {
        let frame = Frame.random(width: 9, height: 7, seed: 4)
        let view = Frame(rows: 4..<7, of: frame)
        #expect(view.width == 9 && view.height == 3 && view.u.height == 2)
        #expect(view.y.samples == Array(frame.y.samples[36..<63]))
        #expect(view.u.samples == Array(frame.u.samples[10..<20]))
        view.v.fill(7)
        #expect(frame.v.samples[10..<20].allSatisfy { $0 == 7 } && frame.v.samples[0..<10].contains { $0 != 7 })
    }

    /// Every filter, row-local or not, at defaults and at each parameter's extreme.
    static let allSettings = SizeSweepTests.extremeSettings

    @Test("Banded and whole-frame results are identical", arguments: allSettings)
    func bandedEqualsWhole(settings: FilterSettings) {
        let filter = FilterCatalog.standard.makeFilter(settings)
        for size in [Size(97, 131), Size(64, 64), Size(33, 67), Size(6, 200)] {
            let original = Frame.random(width: size.width, height: size.height, seed: 11)
            let whole = original.clone()
            filter.apply(to: whole)
            for threads in [2, 3, 4] {
                let banded = original.clone()
                BandScheduler(threads: threads).apply(filter, to: banded)
                #expect(banded.samples == whole.samples, "\(settings) at \(size) with \(threads) threads")
            }
        }
    }

    @Test("The colour filters are row-local, the distortions and cell filters banded, so they do split into bands")
    func filtersThatSplit() {
        let rowLocal = FilterCatalog.standard.entries.filter { $0.makeDefault() is any RowLocalFilter }.map(\.descriptor.category)
        #expect(rowLocal.count >= 18)
        #expect(Set(rowLocal) == [.colorAdjustment, .colorEffect])
        let banded = FilterCatalog.standard.entries.filter { $0.makeDefault() is any BandedFilter }.map(\.descriptor.name)
        #expect(Set(banded).isSuperset(of: ["twirl", "bump", "pinch", "kaleidoscope", "hexagonalPixellate", "crystallize",
                                            "pointillize"]))
    }
}

extension FilterCatalog.Entry {
    func makeDefault() -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try! FilterSettings(name: descriptor.name))
    }
}
