@testable import StyleKit
import Testing

/// The style engine's compiled networks: every one a link paints with, and at most `idle` that
/// none does (issue 37.6: channels of new shapes coming and going must not leave networks behind).
@Suite struct KeptNetworksTests {
    @Test func aNetworkNoLinkPaintsWithIsDroppedPastTheIdleOnes() {
        var kept = KeptNetworks<String, Int>(capacity: 6, idle: 1)
        for (value, key) in ["a", "b", "c"].enumerated() {
            kept.insert(value, for: key)
            kept.paint(with: key, insteadOf: nil)
        }
        #expect(kept.count == 3)
        kept.paint(with: nil, insteadOf: "a")
        #expect(kept.count == 3, "one idle network is kept")
        kept.paint(with: nil, insteadOf: "b")
        #expect(kept.count == 2)
        #expect(kept.network(for: "a") == nil, "the idle one used longest ago went")
        #expect(kept.network(for: "b") == 1 && kept.network(for: "c") == 2)
    }

    @Test func aNetworkTwoLinksPaintWithStaysWhileOneDoes() {
        var kept = KeptNetworks<String, Int>(capacity: 6, idle: 0)
        kept.insert(7, for: "a")
        kept.paint(with: "a", insteadOf: nil)
        kept.paint(with: "a", insteadOf: nil)
        kept.paint(with: nil, insteadOf: "a")
        #expect(kept.network(for: "a") == 7)
        kept.paint(with: nil, insteadOf: "a")
        #expect(kept.count == 0)
    }

    @Test func aLinkMovingToAnotherSizeLeavesItsNetworkIdle() {
        var kept = KeptNetworks<Int, Int>(capacity: 6, idle: 0)
        kept.insert(180, for: 180)
        kept.paint(with: 180, insteadOf: nil)
        kept.insert(144, for: 144)
        #expect(kept.count == 2, "a network just compiled is kept until the link paints with it")
        kept.paint(with: 144, insteadOf: 180)
        #expect(kept.count == 1 && kept.network(for: 144) == 144)
    }

    @Test func manyShapesComingAndGoingLeaveOnlyTheIdleOnes() {
        var kept = KeptNetworks<Int, [UInt8]>(capacity: StyleEngine.keptNetworks, idle: StyleEngine.idleNetworks)
        kept.insert([], for: -1)
        kept.paint(with: -1, insteadOf: nil)  // a channel styled all along
        for shape in 0..<100 {
            kept.insert([UInt8](repeating: 0, count: 16), for: shape)
            kept.paint(with: shape, insteadOf: nil)
            kept.paint(with: nil, insteadOf: shape)
        }
        #expect(kept.count == 1 + StyleEngine.idleNetworks)
        #expect(kept.network(for: -1) != nil && kept.network(for: 99) != nil)
    }

    @Test func pastTheCapacityEvenAPaintedNetworkGoes() {
        var kept = KeptNetworks<Int, Int>(capacity: 2, idle: 1)
        for shape in 0..<3 {
            kept.insert(shape, for: shape)
            kept.paint(with: shape, insteadOf: nil)
        }
        #expect(kept.count == 2 && kept.network(for: 0) == nil)
    }
}
