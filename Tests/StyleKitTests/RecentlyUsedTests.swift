@testable import StyleKit
import Testing

/// What the style engine keeps of its compiled networks: at most a capacity, the least recently
/// used dropped first.
@Suite struct RecentlyUsedTests {
    @Test func pastTheCapacityTheLeastRecentlyUsedGoes() {
        var kept = RecentlyUsed<String, Int>(capacity: 2)
        kept.insert(1, for: "a")
        kept.insert(2, for: "b")
        #expect(kept.value(for: "a") == 1)  // a is now more recent than b
        kept.insert(3, for: "c")
        #expect(kept.count == 2)
        #expect(kept.value(for: "b") == nil && kept.value(for: "a") == 1 && kept.value(for: "c") == 3)
    }

    @Test func insertingAKeptKeyReplacesItsValueWithoutDroppingAnother() {
        var kept = RecentlyUsed<String, Int>(capacity: 2)
        kept.insert(1, for: "a")
        kept.insert(2, for: "b")
        kept.insert(9, for: "a")
        #expect(kept.count == 2 && kept.value(for: "a") == 9 && kept.value(for: "b") == 2)
    }

    @Test func keepDropsWhatItIsToldTo() {
        var kept = RecentlyUsed<Int, String>(capacity: 5)
        for height in [144, 180, 144, 216] { kept.insert("\(height)", for: height * 10 + kept.count) }
        kept.keep { $0 / 10 == 144 }
        #expect(kept.count == 2)
    }

    @Test func dropIdleKeepsTheMostRecentlyUsedOfTheIdle() {
        var kept = RecentlyUsed<String, Int>(capacity: 6)
        for (value, key) in ["a", "b", "c", "d", "e"].enumerated() { kept.insert(value, for: key) }
        _ = kept.value(for: "a")  // a is now the most recent
        kept.dropIdle(where: { ["a", "b", "c"].contains($0) }, keeping: 1)
        #expect(kept.count == 3)
        #expect(kept.value(for: "a") == 0 && kept.value(for: "b") == nil && kept.value(for: "c") == nil)
        #expect(kept.value(for: "d") == 3 && kept.value(for: "e") == 4)
    }

    @Test func manyShapesComingAndGoingKeepAtMostTheCapacity() {
        var kept = RecentlyUsed<Int, [UInt8]>(capacity: StyleEngine.keptNetworks)
        for shape in 0..<100 { kept.insert([UInt8](repeating: 0, count: 16), for: shape) }
        #expect(kept.count == StyleEngine.keptNetworks)
    }
}
