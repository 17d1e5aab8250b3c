import FilterKit
import Foundation
@testable import StyleKit
import Testing

@Suite struct RuntimeTests {
    @Test func loadsTheLaidOutRuntimeAndRunsTheNetwork() throws {
        let root = try #require(OpenVINORuntime.defaultRoot(environment: [:]), "make deps lays out .build/openvino")
        let runtime = try OpenVINORuntime(root: root)
        let network = try StyleNetwork(.shipped, runtime: runtime, width: 64, height: 32, threads: 1)
        for index in 0..<network.input.count { network.input[index] = Float(index % 64) / 64 }
        PaintingStyle.shipped(3).load(into: network)
        let output = try network.run().get()
        let values = Array(UnsafeBufferPointer(start: output, count: 3 * 64 * 32))
        #expect(values.allSatisfy { $0.isFinite })
        #expect(values.max()! - values.min()! > 0.1)
    }

    /// A slowed network (``StyleNetwork/slowdown``, the benchmarks' slower processor) takes that
    /// many times OpenVINO's time a run, busy: 10× is well past 4× a plain run's median.
    @Test func aSlowedNetworkTakesItsFactorTimesAsLong() throws {
        let runtime = try OpenVINORuntime(root: try #require(OpenVINORuntime.defaultRoot(environment: [:])))
        let plain = try StyleNetwork(.shipped, runtime: runtime, width: 128, height: 72, threads: 1)
        let slowed = try StyleNetwork(.shipped, runtime: runtime, width: 128, height: 72, threads: 1, slowdown: 10)
        let clock = ContinuousClock()
        _ = try plain.run().get()
        _ = try slowed.run().get()
        // Taken in turns, so that both see the same load from the suites running beside.
        var plainTimes: [Duration] = [], slowedTimes: [Duration] = []
        for _ in 0..<5 {
            plainTimes.append(try clock.measure { _ = try plain.run().get() })
            slowedTimes.append(try clock.measure { _ = try slowed.run().get() })
        }
        let plainRun = plainTimes.sorted()[2], slowedRun = slowedTimes.sorted()[2]
        #expect(slowedRun > plainRun * 4, "slowed \(slowedRun), plain \(plainRun)")
    }

    /// A `style` link asks to be warmed in the background until it has a stylization to compose
    /// from (its first frame waits for the calibration and the first run); at strength 0 it never does.
    @Test func aLinkIsWarmedUntilItHasAStylization() throws {
        // Its first frame waits for its stylization as long as it takes (a busy machine's first
        // run may take longer than a frame's bounded wait).
        let engine = try StyleEngine(root: try #require(OpenVINORuntime.defaultRoot(environment: [:])),
                                     refreshing: .init(longestWait: .seconds(60)))
        let catalog = StyleCatalog.with(StyleLibrary(engine: engine))
        let link = catalog.makeFilter(try FilterSettings(name: "style", catalog: catalog))
        let unseen = catalog.makeFilter(try FilterSettings(name: "style", parameters: ["strength": 0] as [String: Double], catalog: catalog))
        #expect(link.needsWarmUp && !unseen.needsWarmUp && !engine.isSettled)
        let height = try #require(engine.prepare())
        #expect(StyleEngine.heights.contains(height))
        #expect(engine.isSettled && link.needsWarmUp, "calibrated, but nothing painted for the link yet")
        link.apply(to: Frame(width: 64, height: 36))
        #expect(!link.needsWarmUp)
    }

    @Test func anEmptyFolderIsNoRuntime() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-openvino-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(OpenVINORuntime.defaultRoot(environment: ["FILTERCAST_OPENVINO": empty.path])?.path == empty.path)
        #expect(throws: StyleUnavailable.self) { _ = try OpenVINORuntime(root: empty) }
    }
}
