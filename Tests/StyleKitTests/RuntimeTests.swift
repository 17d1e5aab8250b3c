import Foundation
@testable import StyleKit
import Testing

@Suite struct RuntimeTests {
    @Test func loadsTheLaidOutRuntimeAndRunsTheNetwork() throws {
        let root = try #require(OpenVINORuntime.defaultRoot(environment: [:]), "make deps lays out .build/openvino")
        let runtime = try OpenVINORuntime(root: root)
        let network = try StyleNetwork(runtime: runtime, width: 64, height: 32, threads: 1)
        for index in 0..<network.input.count { network.input[index] = Float(index % 64) / 64 }
        PaintingStyle.shipped(3).load(into: network)
        let output = try network.run().get()
        let values = Array(UnsafeBufferPointer(start: output, count: 3 * 64 * 32))
        #expect(values.allSatisfy { $0.isFinite })
        #expect(values.max()! - values.min()! > 0.1)
    }

    @Test func anEmptyFolderIsNoRuntime() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-openvino-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(OpenVINORuntime.defaultRoot(environment: ["FILTERCAST_OPENVINO": empty.path])?.path == empty.path)
        #expect(throws: StyleUnavailable.self) { _ = try OpenVINORuntime(root: empty) }
    }
}
