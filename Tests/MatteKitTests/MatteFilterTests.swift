import FilterKit
import Foundation
@testable import MatteKit
import StyleKit
import Testing

@Suite struct MatteFilterTests {
    @Test func theCatalogOffersTheMattesFiltersWhereTheRuntimeIsLaidOut() throws {
        let catalog = MatteCatalog.adding(to: .standard, engine: .success(engine))
        #expect(catalog.names.count == FilterCatalog.standard.names.count + 3)
        #expect(catalog.descriptor(named: "backgroundBlur")?.params.map(\.name) == ["amount"])
        #expect(catalog.descriptor(named: "backgroundReplace")?.parameter(named: "background")?.choices?.map(\.id)
                == ["black", "white", "green"])
        #expect(catalog.descriptor(named: "matte")?.params.isEmpty == true)
        let chain = try FilterChain(validating: [("sepia", [:], .all), ("backgroundBlur", ["amount": .number(1)], .all), ("matte", [:], .all)],
                                    catalog: catalog)
        #expect(chain.links.map(\.name) == ["sepia", "backgroundBlur", "matte"])
    }

    @Test func whereTheRuntimeIsMissingThereAreNoMatteFilters() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("no-openvino-matte-\(getpid())")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let missing = Result { () throws(StyleUnavailable) in try MatteEngine(root: empty) }
        #expect(throws: StyleUnavailable.self) { try missing.get() }
        #expect(MatteCatalog.adding(to: .standard, engine: missing).names == FilterCatalog.standard.names)
    }

    /// A runtime laid out but unable to load (another CPU, a broken file): the links pass frames
    /// unchanged, and nothing crashes.
    @Test func aRuntimeThatCannotLoadLeavesFramesUnchanged() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("broken-openvino-matte-\(getpid())")
        defer { try? FileManager.default.removeItem(at: broken) }
        for file in ["lib/libopenvino_c.so"] + MatteModel.all.map({ "models/\($0.file)" }) {
            let url = broken.appendingPathComponent(file)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("not what it says".utf8).write(to: url)
        }
        let engine = try MatteEngine(root: broken)
        let frame = try photograph("messi5.jpg", width: 320, height: 180)
        let before = luma(frame)
        for filter in [MatteFilter(engine: engine), BackgroundBlurFilter(amount: 1, engine: engine),
                       BackgroundReplaceFilter(background: "green", engine: engine)] as [any FrameFilter] {
            filter.apply(to: frame)
            filter.apply(to: frame)
        }
        #expect(luma(frame) == before)
        #expect(engine.isReady)
    }

    @Test func backgroundBlurKeepsThePersonAndBlursTheBackground() throws {
        let source = try photograph("messi5.jpg", width: 1280, height: 720)
        let frame = Frame(width: 1280, height: 720)
        frame.copy(from: source)
        BackgroundBlurFilter(amount: 1, engine: engine).apply(to: frame)
        let blurredEverywhere = Frame(width: 1280, height: 720)
        blurredEverywhere.copy(from: source)
        GaussianBlurFilter(settings: try FilterSettings(name: "gaussianBlur", parameters: ["radius": 76.8])).apply(to: blurredEverywhere)
        let person = MatteEngineTests.person
        func change(_ output: Frame, x: ClosedRange<Double>, y: ClosedRange<Double>) -> Double {
            let before = luma(source), after = luma(output)
            let difference = zip(before, after).map { UInt8(abs(Int($0) - Int($1))) }
            return difference.withUnsafeBufferPointer { mean($0.baseAddress!, width: 1280, height: 720, x: x, y: y) }
        }
        #expect(change(frame, x: person.x, y: person.y) < 1)
        #expect(change(blurredEverywhere, x: person.x, y: person.y) > 5)
        for patch in MatteEngineTests.background {
            let blurred = change(blurredEverywhere, x: patch.x, y: patch.y)
            #expect(change(frame, x: patch.x, y: patch.y) > 0.9 * blurred, "the background blurred as the whole picture is")
        }
        // Amount 0 is the identity.
        let untouched = Frame(width: 1280, height: 720)
        untouched.copy(from: source)
        BackgroundBlurFilter(amount: 0, engine: engine).apply(to: untouched)
        #expect(luma(untouched) == luma(source))
    }

    @Test func backgroundReplacePaintsTheBackgroundAndTheMatteShowsIt() throws {
        let source = try photograph("messi5.jpg", width: 640, height: 360)
        let green = Frame(width: 640, height: 360), grey = Frame(width: 640, height: 360)
        green.copy(from: source)
        grey.copy(from: source)
        BackgroundReplaceFilter(background: "green", engine: engine).apply(to: green)
        MatteFilter(engine: engine).apply(to: grey)
        let corner = MatteEngineTests.background[0], person = MatteEngineTests.person
        func at(_ plane: Plane, _ box: (x: ClosedRange<Double>, y: ClosedRange<Double>)) -> Double {
            let packed = (0..<plane.height).flatMap { Array(UnsafeBufferPointer(start: plane.row($0), count: plane.width)) }
            return packed.withUnsafeBufferPointer { mean($0.baseAddress!, width: plane.width, height: plane.height, x: box.x, y: box.y) }
        }
        #expect(abs(at(green.y, corner) - 150) < 3 && abs(at(green.u, corner) - 44) < 3 && abs(at(green.v, corner) - 21) < 3)
        #expect(abs(at(green.y, person) - at(source.y, person)) < 2)
        #expect(at(grey.y, person) > 230 && at(grey.y, corner) < 20)
        #expect(at(grey.u, corner) == 128 && at(grey.v, person) == 128)
    }
}

/// `backgroundReplace` over uploaded pictures: a choice beside the colours at once, painted behind
/// the person scaled to cover the frame.
@Suite struct UploadedBackgroundTests {
    static func picture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/doc/opencv-doc/examples/data/\(name)")))
    }

    @Test func anUploadedPictureIsAChoiceAndIsPaintedBehindThePerson() throws {
        let library = BackgroundLibrary()
        let catalog = MatteCatalog.adding(to: .standard, engine: .success(engine), backgrounds: library)
        #expect(throws: FilterError.self) { try FilterSettings(name: "backgroundReplace", parameters: ["background": "fruits"], catalog: catalog) }
        #expect(library.uploaded.add(try library.prepare(named: "fruits", picture: try Self.picture("fruits.jpg"))))
        let choices = try #require(catalog.descriptor(named: "backgroundReplace")?.params[0].choices)
        #expect(choices.map(\.id) == ["black", "white", "green", "fruits"] && choices[3].thumbnail == "/api/backgrounds/fruits.jpg")
        let settings = try FilterSettings(name: "backgroundReplace", parameters: ["background": "fruits"], catalog: catalog)
        let source = try photograph("messi5.jpg", width: 640, height: 360)
        let frame = Frame(width: 640, height: 360)
        frame.copy(from: source)
        let filter = catalog.makeFilter(settings)
        #expect(filter.needsWarmUp, "the backdrop is cut beside the picture")
        filter.apply(to: frame)
        #expect(!filter.needsWarmUp)
        let backdrop = try photograph("fruits.jpg", width: 640, height: 360)
        func at(_ output: Frame, _ box: (x: ClosedRange<Double>, y: ClosedRange<Double>)) -> Double {
            luma(output).withUnsafeBufferPointer { mean($0.baseAddress!, width: 640, height: 360, x: box.x, y: box.y) }
        }
        let corner = MatteEngineTests.background[0], person = MatteEngineTests.person
        #expect(abs(at(frame, corner) - at(backdrop, corner)) < 4, "the far background is the picture")
        #expect(abs(at(frame, person) - at(source, person)) < 2, "the person is kept")
        #expect(library.uploaded.remove("fruits"))
        #expect(catalog.descriptor(named: "backgroundReplace")?.params[0].choices?.count == 3)
    }

    @Test func namesAreCheckedAndWhatIsNoPictureIsRefused() throws {
        #expect(BackgroundLibrary.problem(naming: "wall") == nil)
        #expect(BackgroundLibrary.problem(naming: "green")?.contains("a colour's name") == true)
        #expect(BackgroundLibrary.problem(naming: "Wall.png")?.contains("not a background name") == true)
        #expect { try BackgroundLibrary().prepare(named: "x", picture: Array("GIF89a".utf8)) } throws: {
            "\($0)".contains("not a JPEG or PNG")
        }
    }
}
