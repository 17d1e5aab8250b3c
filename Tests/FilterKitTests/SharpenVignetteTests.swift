import Testing
import FilterKit

/// The sharpen filters (unsharpMask, sharpen) and vignette, built from a catalog of their own.
@Suite("Sharpen and vignette")
struct SharpenVignetteTests {
    static let catalog = FilterCatalog([
        .init(NoFilter.self), .init(VignetteFilter.self), .init(UnsharpMaskFilter.self), .init(SharpenFilter.self),
    ])

    static func filter(_ name: String, _ parameters: [String: Double] = [:]) throws -> any FrameFilter {
        catalog.makeFilter(try FilterSettings(name: name, parameters: parameters, catalog: catalog))
    }

    static let identities: [(String, [String: Double])] = [
        ("vignette", ["intensity": 0]), ("vignette", ["intensity": 0, "radius": 0]),
        ("vignette", ["intensity": 0, "radius": 2]),
        ("unsharpMask", ["intensity": 0]), ("unsharpMask", ["intensity": 0, "radius": 100]),
        ("unsharpMask", ["intensity": 3, "radius": 0]),
        ("sharpen", ["sharpness": 0]), ("sharpen", ["sharpness": 0, "radius": 20]),
        ("sharpen", ["sharpness": 2, "radius": 0]),
    ]

    // MARK: Catalog entries

    @Test("Descriptors: names, categories, defaults and ranges as Core Image's")
    func descriptors() {
        let vignette = VignetteFilter.descriptor
        #expect(vignette.name == "vignette" && vignette.category == .stylize)
        #expect(vignette.params.map(\.name) == ["intensity", "radius"])
        #expect(vignette.parameter(named: "intensity").map { ($0.default, $0.min, $0.max, $0.identity) } ?? (9, 9, 9, nil)
                == (1, -1, 1, 0))  // Core Image's default does nothing; this one shows the effect
        #expect(vignette.parameter(named: "radius").map { ($0.default, $0.min, $0.max) } ?? (9, 9, 9) == (1, 0, 2))

        let unsharp = UnsharpMaskFilter.descriptor
        #expect(unsharp.name == "unsharpMask" && unsharp.category == .sharpen)
        #expect(unsharp.parameter(named: "radius").map { ($0.default, $0.min, $0.max) } ?? (9, 9, 9) == (2.5, 0, 100))
        #expect(unsharp.parameter(named: "intensity").map { ($0.default, $0.min, $0.max, $0.identity) } ?? (9, 9, 9, nil)
                == (0.5, 0, 10, 0))

        let sharpen = SharpenFilter.descriptor
        #expect(sharpen.name == "sharpen" && sharpen.category == .sharpen)
        #expect(sharpen.parameter(named: "sharpness").map { ($0.default, $0.min, $0.max, $0.identity) } ?? (9, 9, 9, nil)
                == (0.4, 0, 2, 0))
        #expect(sharpen.parameter(named: "radius").map { ($0.default, $0.min, $0.max) } ?? (9, 9, 9) == (1.69, 0, 20))
    }

    // MARK: Identities

    @Test("Identity settings leave random frames bit-exact, applied twice",
          arguments: [Size(17, 11), Size(1, 1), Size(2, 3), Size(64, 36)])
    func identities(size: Size) throws {
        for (name, parameters) in Self.identities {
            let filter = try Self.filter(name, parameters)
            for seed in [1, 2, 3] as [UInt64] {
                let original = Frame.random(width: size.width, height: size.height, seed: seed)
                let frame = original.clone()
                filter.apply(to: frame)
                #expect(frame.samples == original.samples, "\(name) \(parameters) on \(size), seed \(seed)")
                filter.apply(to: frame)
                #expect(frame.samples == original.samples, "\(name) \(parameters) on \(size), second run")
            }
        }
    }

    @Test("Default settings change a random frame (the identity test can fail)")
    func defaultsChange() throws {
        for (name, parameters) in [("vignette", ["intensity": 0.5]), ("unsharpMask", [:]), ("sharpen", [:])] {
            let original = Frame.random(width: 17, height: 11, seed: 5)
            let frame = original.clone()
            try Self.filter(name, parameters).apply(to: frame)
            #expect(frame.samples != original.samples, "\(name)")
        }
    }

    @Test("Every size from 1x1 to 9x9 runs, on fresh and reused instances (size changes too)")
    func sizeSweep() throws {
        let filters = try [Self.filter("vignette", ["intensity": 0.7]), Self.filter("vignette", ["intensity": -1, "radius": 0]),
                           Self.filter("unsharpMask"), Self.filter("unsharpMask", ["radius": 100, "intensity": 10]),
                           Self.filter("sharpen")]
        for filter in filters {
            for width in 1...9 {
                for height in 1...9 {
                    let frame = Frame.random(width: width, height: height, seed: UInt64(width * 16 + height))
                    filter.apply(to: frame)
                    filter.apply(to: frame)
                }
            }
        }
    }

    // MARK: Vignette

    @Test("Vignette: the centre of an odd frame is unchanged; of an even frame, within 1")
    func vignetteCentre() throws {
        for intensity in [1.0, 0.5, -0.5, -1] {
            let filter = try Self.filter("vignette", ["intensity": intensity])
            let odd = Frame.filled(width: 33, height: 21, y: 120)
            filter.apply(to: odd)
            #expect(odd.y[16, 10] == 120)
            let even = Frame.filled(width: 32, height: 20, y: 120)
            try Self.filter("vignette", ["intensity": intensity]).apply(to: even)
            for (x, y) in [(15, 9), (16, 9), (15, 10), (16, 10)] { #expect(abs(Int(even.y[x, y]) - 120) <= 1) }
        }
    }

    @Test("Vignette: corners darker for intensity > 0, brighter for < 0; grey chroma stays 128")
    func vignetteCorners() throws {
        let size = Size(48, 27)
        let corners = [(0, 0), (47, 0), (0, 26), (47, 26)]
        let darker = Frame.filled(width: size.width, height: size.height, y: 128)
        try Self.filter("vignette", ["intensity": 0.5]).apply(to: darker)
        let brighter = Frame.filled(width: size.width, height: size.height, y: 128)
        try Self.filter("vignette", ["intensity": -0.5]).apply(to: brighter)
        for (x, y) in corners {
            #expect(darker.y[x, y] < 110, "(\(x), \(y)): \(darker.y[x, y])")
            #expect(brighter.y[x, y] > 146, "(\(x), \(y)): \(brighter.y[x, y])")
        }
        for frame in [darker, brighter] {
            #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 })
        }
        // Full intensity at radius 1 takes the far corners to black.
        let black = Frame.filled(width: size.width, height: size.height, y: 255)
        try Self.filter("vignette", ["intensity": 1, "radius": 0.5]).apply(to: black)
        #expect(black.y[0, 0] == 0 && black.y[47, 26] == 0)
    }

    @Test("Vignette: luma never brightens with distance from the centre, along rows, columns and diagonals",
          arguments: [0.3, 1.0], [0.5, 1.0, 2.0])
    func vignetteMonotonic(intensity: Double, radius: Double) throws {
        let frame = Frame.filled(width: 41, height: 31, y: 230)
        try Self.filter("vignette", ["intensity": intensity, "radius": radius]).apply(to: frame)
        for step in 1...20 {
            #expect(frame.y[20 + step, 15] <= frame.y[20 + step - 1, 15])
            #expect(frame.y[20 - step, 15] <= frame.y[20 - step + 1, 15])
        }
        for step in 1...15 {
            #expect(frame.y[20, 15 + step] <= frame.y[20, 15 + step - 1])
            #expect(frame.y[20 + step, 15 + step] <= frame.y[20 + step - 1, 15 + step - 1])
            #expect(frame.y[20 - step, 15 - step] <= frame.y[20 - step + 1, 15 - step + 1])
        }
        #expect(frame.y[0, 0] < frame.y[20, 15])
    }

    @Test("Vignette: luma scales by the gain and chroma is pulled towards 128 by the same gain")
    func vignetteChroma() throws {
        let frame = Frame.filled(width: 40, height: 30, y: 200, u: 220, v: 40)
        try Self.filter("vignette", ["intensity": 0.8, "radius": 0.8]).apply(to: frame)
        for y in 0..<15 {
            for x in 0..<20 {
                let u = Int(frame.u[x, y]), v = Int(frame.v[x, y])
                #expect(u <= 220 && u >= 128 && v >= 40 && v <= 128)
                // The gain read from luma (the mean over the 2x2 block) predicts the chroma offsets.
                let block = [(0, 0), (1, 0), (0, 1), (1, 1)].map { Double(frame.y[2 * x + $0.0, 2 * y + $0.1]) }
                let gain = block.reduce(0, +) / 4 / 200
                #expect(abs(Double(u - 128) - 92 * gain) <= 2.5, "u at (\(x), \(y))")
                #expect(abs(Double(128 - v) - 88 * gain) <= 2.5, "v at (\(x), \(y))")
            }
        }
        #expect(frame.u[0, 0] < 150 && frame.v[0, 0] > 105)
    }

    // MARK: Unsharp mask and sharpen

    @Test("Unsharp and sharpen: flat frames stay exactly flat",
          arguments: ["unsharpMask", "sharpen"], [0, 1, 77, 254, 255] as [UInt8])
    func flatStaysFlat(name: String, value: UInt8) throws {
        let amount = name == "unsharpMask" ? "intensity" : "sharpness"
        for parameters in [[:], [amount: 2.0, "radius": 7], [amount: 2.0, "radius": 20]] {
            for size in [Size(17, 11), Size(1, 1), Size(2, 3), Size(64, 36)] {
                let frame = Frame.filled(width: size.width, height: size.height, y: value, u: 90, v: 170)
                let original = frame.clone()
                try Self.filter(name, parameters).apply(to: frame)
                #expect(frame.samples == original.samples, "\(name) \(parameters) on \(size)")
            }
        }
    }

    @Test("Unsharp and sharpen: a step edge overshoots on both sides; far from it nothing changes",
          arguments: ["unsharpMask", "sharpen"])
    func stepOvershoot(name: String) throws {
        let vertical = Frame.verticalStep(width: 32, height: 9, left: 60, right: 180)
        try Self.filter(name).apply(to: vertical)
        for y in 0..<9 {
            #expect(vertical.y[15, y] < 60 && vertical.y[16, y] > 180, "row \(y): \(vertical.y[15, y]), \(vertical.y[16, y])")
            #expect(vertical.y[0, y] == 60 && vertical.y[31, y] == 180)
        }
        let horizontal = Frame.horizontalStep(width: 7, height: 30, top: 200, bottom: 50)
        try Self.filter(name).apply(to: horizontal)
        for x in 0..<7 {
            #expect(horizontal.y[x, 14] > 200 && horizontal.y[x, 15] < 50)
            #expect(horizontal.y[x, 0] == 200 && horizontal.y[x, 29] == 50)
        }
    }

    @Test("Unsharp: more intensity, more overshoot; saturates at 0 and 255")
    func overshootGrowsWithIntensity() throws {
        var previous = (low: 60, high: 180)
        for intensity in [0.25, 0.5, 1, 1.4, 10] {
            let frame = Frame.verticalStep(width: 32, height: 4, left: 60, right: 180)
            try Self.filter("unsharpMask", ["intensity": intensity]).apply(to: frame)
            let low = Int(frame.y[15, 1]), high = Int(frame.y[16, 1])
            #expect(low < previous.low && high > previous.high, "intensity \(intensity): \(low), \(high)")
            previous = (low, high)
        }
        #expect(previous == (0, 255))
    }

    @Test("Unsharp: the expected values of a 3x3-box mask on a step (radius scales below one pixel → 3x3 box)")
    func exactStep() throws {
        // At this height radius 2.5 is far below one pixel, so the box is the smallest, 3x3: next to
        // the edge the blur is (2·60 + 180) / 3 = 100 on the dark side and 140 on the bright side.
        let frame = Frame.verticalStep(width: 8, height: 5, left: 60, right: 180)
        try Self.filter("unsharpMask", ["intensity": 1]).apply(to: frame)
        #expect(frame.y.samples == Array(repeating: [60, 60, 60, 20, 220, 180, 180, 180] as [UInt8], count: 5).flatMap { $0 })
    }

    @Test("Unsharp and sharpen leave chroma untouched", arguments: ["unsharpMask", "sharpen"])
    func chromaUntouched(name: String) throws {
        let original = Frame.random(width: 33, height: 19, seed: 7)
        let frame = original.clone()
        try Self.filter(name).apply(to: frame)
        #expect(frame.u.samples == original.u.samples && frame.v.samples == original.v.samples)
        #expect(frame.y.samples != original.y.samples)
    }
}
