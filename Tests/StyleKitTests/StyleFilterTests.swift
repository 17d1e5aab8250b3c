import FilterKit
import Foundation
@testable import StyleKit
import Testing

/// The `style` filter on a photograph through the real network.
@Suite(.serialized) struct StyleFilterTests {
    /// One engine for these tests, at a fixed height (no calibration: sizes the tests can name),
    /// painting every frame from itself (the network's speed does not matter).
    static let engine: StyleEngine = {
        let root = OpenVINORuntime.defaultRoot(environment: [:])!
        return try! StyleEngine(root: root, height: 180, refreshing: StyleRefresher.Options(synchronous: true))
    }()

    /// `frame` through the `style` filter of `library`'s catalog (the shipped styles only, by default).
    static func styled(_ frame: Frame, _ parameters: [String: ParameterValue],
                       library: StyleLibrary = StyleLibrary(engine: engine)) throws -> Frame {
        let catalog = StyleCatalog.with(library)
        let settings = try FilterSettings(name: "style", parameters: parameters, catalog: catalog)
        let copy = Frame(width: frame.width, height: frame.height)
        copy.copy(from: frame)
        catalog.makeFilter(settings).apply(to: copy)
        return copy
    }

    @Test func stylesARealFrameTheSameWayEveryTime() throws {
        let source = try naturalFrame(width: 640, height: 360)
        let first = try Self.styled(source, ["style": "style-5"])
        let second = try Self.styled(source, ["style": "style-5"])
        #expect(meanDifference(samples(first), samples(source)) > 8, "the picture changed")
        #expect(samples(first) == samples(second), "deterministic")
        #expect(samples(try Self.styled(source, ["style": "style-5", "strength": 0])) == samples(source))
    }

    /// Every shipped style changes the picture, each in its own way.
    @Test func everyStyleIsItsOwn() throws {
        let source = try naturalFrame(width: 192, height: 108)
        var pictures: [[UInt8]] = []
        for choice in StyleChoices.shipped {
            let picture = samples(try Self.styled(source, ["style": .choice(choice.id)]))
            #expect(meanDifference(picture, samples(source)) > 5, "\(choice.id)")
            pictures.append(picture)
        }
        for i in pictures.indices { for j in pictures.indices where j > i {
            #expect(meanDifference(pictures[i], pictures[j]) > 1, "\(StyleChoices.shipped[i].id) vs \(StyleChoices.shipped[j].id)")
        } }
    }

    /// Strength mixes with the source; detail brings the source's fine luma back.
    @Test func strengthAndDetailMoveTowardsTheSource() throws {
        let source = try naturalFrame(width: 640, height: 360)
        let full = meanDifference(samples(try Self.styled(source, ["strength": 1, "detail": 0])), samples(source))
        let half = meanDifference(samples(try Self.styled(source, ["strength": 0.5, "detail": 0])), samples(source))
        #expect(half < full * 0.7)
        let sharp = try Self.styled(source, ["detail": 1]), soft = try Self.styled(source, ["detail": 0])
        #expect(lumaDetail(sharp) > lumaDetail(soft) * 1.1)
    }

    /// Against the network run directly at the frame's size (no resampling): the frame converted to
    /// RGB here, the output's luma computed here.
    @Test func matchesTheNetworkRunDirectly() throws {
        let source = try naturalFrame(width: 320, height: 180)
        let styled = try Self.styled(source, ["style": "style-12", "detail": 0])
        let network = try StyleNetwork(.shipped, runtime: OpenVINORuntime(root: OpenVINORuntime.defaultRoot(environment: [:])!),
                                       width: 320, height: 180, threads: 1)
        PaintingStyle.shipped(11).load(into: network)
        let count = 320 * 180
        for y in 0..<180 { for x in 0..<320 {
            let luma = Float(source.y.row(y)[x]), cb = Float(source.u.row(y / 2)[x / 2]) - 128, cr = Float(source.v.row(y / 2)[x / 2]) - 128
            let i = y * 320 + x
            network.input[i] = min(max((luma + 1.402 * cr) / 255, 0), 1)
            network.input[count + i] = min(max((luma - 0.344136 * cb - 0.714136 * cr) / 255, 0), 1)
            network.input[2 * count + i] = min(max((luma + 1.772 * cb) / 255, 0), 1)
        } }
        let output = try network.run().get()
        var total = 0.0
        for i in 0..<count {
            let reference = 255 * (0.299 * output[i] + 0.587 * output[count + i] + 0.114 * output[2 * count + i])
            total += abs(Double(min(max(reference, 0), 255)) - Double(styled.y.row(i / 320)[i % 320]))
        }
        #expect(total / Double(count) < 2.5, "mean luma difference \(total / Double(count))")
    }

    /// The int8 network (what `style` runs) against the float32 one it was quantized from, on a
    /// photograph, in the two styles that differ most (deps/style_int8/eval.log): far closer to
    /// each other than two styles are (mean sample differences 2.2 and 2.5 here, 60–70 to the next
    /// style).
    @Test func theInt8NetworkPaintsAsTheFloat32OneDoes() throws {
        let root = try #require(OpenVINORuntime.defaultRoot(environment: [:]))
        let float32 = try StyleEngine(root: root, height: 180, shipped: .shippedFloat32)
        let source = try naturalFrame(width: 640, height: 360)
        func painted(_ index: Int, by engine: StyleEngine) throws -> [UInt8] {
            samples(try Self.styled(source, ["style": .choice("style-\(index + 1)")], library: StyleLibrary(engine: engine)))
        }
        for index in [3, 15] {
            let quantized = try painted(index, by: Self.engine), original = try painted(index, by: float32)
            let apart = meanDifference(quantized, original), otherStyle = meanDifference(original, try painted(index + 1, by: float32))
            #expect(apart < 4 && apart * 10 < otherStyle, "style-\(index + 1): int8 \(apart) from float32, the next style \(otherStyle)")
        }
    }

    /// A link steadies its picture against its previous one (a frame brightened a little: the
    /// source hardly moved), and starts over at a seek: then the picture is a fresh link's.
    @Test func aLinkHoldsItsPictureSteadyUntilASeek() throws {
        let first = try naturalFrame(width: 320, height: 180)
        let next = Frame(width: 320, height: 180)
        next.copy(from: first)
        for row in 0..<180 { let line = next.y.row(row); for x in 0..<320 { line[x] = line[x] &+ (line[x] < 250 ? 2 : 0) } }
        let catalog = StyleCatalog.with(StyleLibrary(engine: Self.engine))
        let link = catalog.makeFilter(try FilterSettings(name: "style", parameters: ["style": "style-3"], catalog: catalog))
        func through(_ frame: Frame, seek: Bool) -> [UInt8] {
            let copy = Frame(width: frame.width, height: frame.height)
            copy.copy(from: frame)
            copy.isDiscontinuity = seek
            link.apply(to: copy)
            return samples(copy)
        }
        let fresh = samples(try Self.styled(next, ["style": "style-3"]))
        #expect(through(first, seek: false) == samples(try Self.styled(first, ["style": "style-3"])), "a link's first frame")
        let held = through(next, seek: false)
        #expect(held != fresh, "steadied against the frame before")
        #expect(meanDifference(held, fresh) < 4, "but close to what the network painted")
        #expect(through(next, seek: true) == fresh, "a seek starts over")
    }

    /// The sum of absolute differences between horizontal luma neighbours, per sample.
    func lumaDetail(_ frame: Frame) -> Double {
        var sum = 0
        for y in 0..<frame.height { let row = frame.y.row(y); for x in 1..<frame.width { sum += abs(Int(row[x]) - Int(row[x - 1])) } }
        return Double(sum) / Double(frame.width * frame.height)
    }
}
