import FilterKit
import Foundation
@testable import StyleKit
import Testing

@Suite struct StyleCatalogTests {
    @Test func theCatalogOffersStyleWhereTheRuntimeLoads() throws {
        let engine = try StyleEngine(root: try #require(OpenVINORuntime.defaultRoot(environment: [:])), network: .int8)
        let catalog = StyleCatalog.adding(to: .standard, engine: engine)
        let style = try #require(catalog.descriptor(named: "style"))
        #expect(catalog.names.count == FilterCatalog.standard.names.count + 1)
        #expect(style.params.map(\.name) == ["style", "strength", "detail"])
        #expect(style.parameter(named: "style")?.choices?.count == 26)
        #expect(Set(StyleChoices.shipped.map(\.id)).count == 26)
        let settings = try FilterSettings(name: "style", parameters: ["style": "style-9", "strength": 0.8], catalog: catalog)
        #expect(settings.choice("style") == "style-9" && settings["style"] == 8 && settings["detail"] == 0.5)
        #expect(throws: FilterError.unknownChoice(filter: "style", parameter: "style", value: "wave",
                                                  known: StyleChoices.shipped.map(\.id))) {
            try FilterSettings(name: "style", parameters: ["style": "wave"], catalog: catalog)
        }
        #expect(throws: FilterError.self) { try FilterSettings(name: "style", parameters: ["style": 26], catalog: catalog) }
        // It chains like any other filter.
        let chain = try FilterChain(validating: [("style", ["style": "style-2"], .all), ("vignette", [:], .all)], catalog: catalog)
        #expect(chain.links.map(\.name) == ["style", "vignette"])
    }

    /// The executable chooses the network the shipped styles are painted with (`bench
    /// --style-network`, `FILTERCAST_STYLE_NETWORK`) when it makes the engine.
    @Test func theEngineOfTheExecutablePaintsWithTheNetworkItAsks() throws {
        let root = try #require(OpenVINORuntime.defaultRoot(environment: [:]))
        #expect(try StyleEngine(root: root, network: .int8).shippedModel == .shipped)
        #expect(try StyleEngine(root: root, network: .float32).shippedModel == .shippedFloat32)
    }

    @Test func whereTheRuntimeIsMissingThereIsNoStyle() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-openvino-catalog-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let engine = Result { () throws(StyleUnavailable) in try StyleEngine(root: empty) }
        #expect(throws: StyleUnavailable.self) { try engine.get() }
        #expect(StyleCatalog.catalog(for: engine).descriptor(named: "style") == nil)
        #expect(StyleCatalog.catalog(for: engine).names == FilterCatalog.standard.names)
    }

    @Test func aRuntimeThatCannotLoadIsOfferedAndSaysWhyAtTheFirstUse() throws {
        // Nothing is loaded at start: a server that never styles does not pay for OpenVINO.
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-openvino-\(getpid())")
        defer { try? FileManager.default.removeItem(at: broken) }
        for (folder, file) in [("lib", "libopenvino_c.so"), ("models", StyleModel.shipped.file)] {
            try FileManager.default.createDirectory(at: broken.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data("not what it says".utf8).write(to: broken.appendingPathComponent("\(folder)/\(file)"))
        }
        let engine = try StyleEngine(root: broken)
        #expect(StyleCatalog.catalog(for: .success(engine)).descriptor(named: "style") != nil)
        #expect(engine.prepare() == nil)
        guard case .failure(let reason) = engine.networkSize(forFrame: 640, 360) else {
            Issue.record("a runtime that cannot load ran")
            return
        }
        #expect(reason.description.contains("cannot load"))
    }

    /// Issue 42: the catalog says the refresh rate the network reaches here, at the height the
    /// calibration chose — nothing before it ran, and nothing where the network cannot run.
    @Test func theCatalogSaysTheRefreshRateTheCalibrationMeasured() throws {
        let engine = try StyleEngine(root: OpenVINORuntime.defaultRoot(environment: [:])!)
        let catalog = StyleCatalog.catalog(for: .success(engine))
        #expect(engine.calibration == nil && catalog.descriptor(named: "style")?.refreshHz == nil)
        let height = try #require(engine.prepare())
        let calibration = try #require(engine.calibration)
        #expect(calibration.lines == height, "measured at the height chosen, not only at the smallest")
        #expect(calibration.run > .zero && calibration.run < .seconds(5))
        #expect(calibration.refreshHz == (10 / calibration.run.seconds).rounded() / 10)
        #expect(catalog.descriptor(named: "style")?.refreshHz == calibration.refreshHz)
        #expect(catalog.descriptor(named: "sepia")?.refreshHz == nil)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try #require(catalog.descriptor(named: "sepia")))) as? [String: Any]
        #expect(json?["refreshHz"] == nil, "another filter's entry is as it was")
    }

    @Test func theNetworkSizeFollowsTheFrame() throws {
        let engine = StyleFilterTests.engine
        #expect(try engine.networkSize(forFrame: 1280, 720).get() == .init(width: 320, height: 180))
        #expect(try engine.networkSize(forFrame: 1920, 1080).get() == .init(width: 320, height: 180))
        #expect(try engine.networkSize(forFrame: 160, 90).get() == .init(width: 156, height: 88))
        #expect(engine.prepare() == 180)
    }
}
