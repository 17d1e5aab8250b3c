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
                #expect(count >= 1 && count <= threads * BandScheduler.partsPerThread && (threads > 1 || count == 1))
                let bands = (0..<count).map { Partition.rows($0, of: count, height: height) }
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
        // 300 wide: column parts (aligned to 64 samples) split the chroma planes too.
        for size in [Size(97, 131), Size(64, 64), Size(33, 67), Size(6, 200), Size(300, 96)] {
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

    @Test("Every filter but the identity splits: colour filters by bands, the others by passes")
    func filtersThatSplit() {
        let rowLocal = FilterCatalog.standard.entries.filter { $0.makeDefault() is any RowLocalFilter }.map { $0.descriptor!.category }
        #expect(rowLocal.count >= 18)
        #expect(Set(rowLocal) == [.colorAdjustment, .colorEffect])
        let whole = FilterCatalog.standard.entries.map { $0.makeDefault() }
            .filter { !($0 is any RowLocalFilter) && !($0 is any PassFilter) }
        #expect(whole.map { type(of: $0).descriptor.name } == ["none"])
    }

    @Test("Parts of rows start on even rows, parts of columns on multiples of 64, and together they cover all")
    func partitions() {
        for (length, parts) in [(1, 3), (7, 2), (64, 4), (130, 2), (1920, 3), (4096, 8)] {
            let rows = (0..<parts).map { Partition.rows($0, of: parts, height: length) }
            let columns = (0..<parts).map { Partition.columns($0, of: parts, width: length) }
            let items = (0..<parts).map { Partition.items($0, of: parts, count: length) }
            for (ranges, alignment) in [(rows, 2), (columns, 64), (items, 1)] {
                #expect(ranges.first?.lowerBound == 0 && ranges.last?.upperBound == length)
                for (range, next) in zip(ranges, ranges.dropFirst()) { #expect(range.upperBound == next.lowerBound) }
                for range in ranges.dropFirst() where !range.isEmpty { #expect(range.lowerBound % alignment == 0) }
            }
        }
        #expect(Partition.chromaRows(under: 4..<9) == 2..<5)
    }
}

extension FilterCatalog.Entry {
    func makeDefault() -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try! FilterSettings(name: descriptor!.name))
    }
}
