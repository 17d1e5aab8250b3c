import Testing
import FilterKit

/// The colour effects, in a catalog of their own (the standard catalog registers them separately).
let colorEffectCatalog = FilterCatalog([
    .init(InvertFilter.self), .init(MonoFilter.self), .init(NoirFilter.self), .init(ColorMonochromeFilter.self),
    .init(PosterizeFilter.self), .init(ThermalFilter.self), .init(FalseColorFilter.self), .init(XRayFilter.self),
    .init(FadeFilter.self), .init(ChromeFilter.self), .init(InstantFilter.self),
])

private func effect(_ name: String, _ parameters: [String: Double] = [:]) throws -> any FrameFilter {
    colorEffectCatalog.makeFilter(try FilterSettings(name: name, parameters: parameters, catalog: colorEffectCatalog))
}

private let sizes = [Size(17, 11), Size(8, 8), Size(7, 5), Size(1, 1), Size(2, 3), Size(64, 36)]

/// A 256×2 grey ramp: column x has luma x.
private func ramp() -> Frame {
    let frame = Frame.filled(width: 256, height: 2, y: 0)
    for row in 0..<2 { for x in 0..<256 { frame.y[x, row] = UInt8(x) } }
    return frame
}

@Suite("Colour effects")
struct ColorEffectTests {
    @Test("Every colour effect is in the colour-effect category with valid defaults")
    func descriptors() throws {
        #expect(colorEffectCatalog.names == ["invert", "mono", "noir", "monochrome", "posterize", "thermal",
                                             "falseColor", "xray", "fade", "chrome", "instant"])
        for descriptor in colorEffectCatalog.descriptors {
            #expect(descriptor.category == .colorEffect)
            _ = try FilterSettings(name: descriptor.name, catalog: colorEffectCatalog)
        }
    }

    @Test("Parameters are validated against their ranges")
    func validation() throws {
        #expect(throws: FilterError.self) { try FilterSettings(name: "posterize", parameters: ["levels": 1], catalog: colorEffectCatalog) }
        #expect(throws: FilterError.self) { try FilterSettings(name: "posterize", parameters: ["levels": 31], catalog: colorEffectCatalog) }
        #expect(throws: FilterError.self) { try FilterSettings(name: "monochrome", parameters: ["intensity": 1.5], catalog: colorEffectCatalog) }
        #expect(throws: FilterError.self) { try FilterSettings(name: "monochrome", parameters: ["red": -0.1], catalog: colorEffectCatalog) }
        #expect(throws: FilterError.self) { try FilterSettings(name: "falseColor", parameters: ["color1Blue": 2], catalog: colorEffectCatalog) }
        #expect(throws: FilterError.self) { try FilterSettings(name: "invert", parameters: ["intensity": 1], catalog: colorEffectCatalog) }
        let rounded = try FilterSettings(name: "posterize", parameters: ["levels": 4.4], catalog: colorEffectCatalog)
        #expect(rounded["levels"] == 4)
        let monochrome = try FilterSettings(name: "monochrome", catalog: colorEffectCatalog)
        #expect(monochrome.values == ["red": 0.6, "green": 0.45, "blue": 0.3, "intensity": 1])
    }

    @Test("Monochrome at intensity 0 leaves random frames bit-exact", arguments: sizes)
    func monochromeIdentity(size: Size) throws {
        for parameters in [["intensity": 0.0], ["intensity": 0, "red": 0, "green": 1, "blue": 0.2]] {
            let filter = try effect("monochrome", parameters)
            for seed in [1, 2, 3] as [UInt64] {
                let original = Frame.random(width: size.width, height: size.height, seed: seed)
                let frame = original.clone()
                filter.apply(to: frame)
                filter.apply(to: frame)
                #expect(frame.samples == original.samples, "\(parameters) on \(size), seed \(seed)")
            }
        }
    }

    @Test("Invert is 255 − x on every plane, and an involution", arguments: sizes)
    func invert(size: Size) throws {
        let filter = try effect("invert")
        let original = Frame.random(width: size.width, height: size.height, seed: 7)
        let frame = original.clone()
        filter.apply(to: frame)
        #expect(frame.samples == original.samples.map { 255 - $0 })
        filter.apply(to: frame)
        #expect(frame.samples == original.samples)
    }

    @Test("Mono and noir give neutral chroma and monotonic luma", arguments: ["mono", "noir"])
    func greyscale(name: String) throws {
        let filter = try effect(name)
        for size in sizes {
            let frame = Frame.random(width: size.width, height: size.height, seed: 5)
            filter.apply(to: frame)
            #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 }, "\(size)")
        }
        let frame = ramp()
        filter.apply(to: frame)
        let luma = (0..<256).map { frame.y[$0, 0] }
        #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(luma.first! <= 2 && luma.last! >= 253)
        // An S-curve: darker shadows, brighter highlights.
        #expect(luma[64] < 64 && luma[192] > 192)
    }

    @Test("Noir has more contrast than mono")
    func noirContrast() throws {
        let mono = ramp(), noir = ramp()
        try effect("mono").apply(to: mono)
        try effect("noir").apply(to: noir)
        #expect(noir.y[64, 0] < mono.y[64, 0])
        #expect(noir.y[200, 0] > mono.y[200, 0])
    }

    @Test("Posterize leaves at most `levels` luma values", arguments: [2, 3, 6, 17, 30])
    func posterize(levels: Int) throws {
        let filter = try effect("posterize", ["levels": Double(levels)])
        let frame = ramp()
        filter.apply(to: frame)
        #expect(Set(frame.y.samples).count == levels)
        #expect(frame.y[0, 0] == 0 && frame.y[255, 0] == 255)
        let random = Frame.random(width: 17, height: 11, seed: 9)
        filter.apply(to: random)
        #expect(Set(random.y.samples).count <= levels)
        // Neutral chroma stays neutral; chroma takes few values too.
        #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 })
        #expect(Set(random.u.samples + random.v.samples).count <= levels + 1)
    }

    @Test("Thermal: black stays black, dark is blue, mid is red, bright is yellow-white")
    func thermal() throws {
        let filter = try effect("thermal")
        func colour(_ grey: UInt8) -> (y: Int, cb: Int, cr: Int) {
            let frame = Frame.filled(width: 4, height: 4, y: grey, u: 90, v: 200)
            filter.apply(to: frame)
            return (Int(frame.y[0, 0]), Int(frame.u[0, 0]), Int(frame.v[0, 0]))
        }
        let black = colour(0), blue = colour(51), red = colour(153), yellow = colour(204), white = colour(255)
        #expect(black == (0, 128, 128))
        #expect(blue.cb > 200 && blue.cr < 128)
        #expect(red.cr > 200 && red.cb < 128)
        #expect(yellow.cb < 40 && yellow.cr > 128)
        #expect(white == (255, 128, 128))
        #expect(blue.y < red.y && red.y < yellow.y)
    }

    @Test("False colour: dark follows color0, bright follows color1")
    func falseColor() throws {
        // color0 blue, color1 red.
        let filter = try effect("falseColor", ["color0Red": 0, "color0Green": 0, "color0Blue": 1,
                                               "color1Red": 1, "color1Green": 0, "color1Blue": 0])
        let dark = Frame.filled(width: 3, height: 3, y: 0), bright = Frame.filled(width: 3, height: 3, y: 255)
        filter.apply(to: dark)
        filter.apply(to: bright)
        #expect(dark.u.samples.allSatisfy { $0 == 255 } && dark.v.samples.allSatisfy { $0 < 128 })
        #expect(bright.v.samples.allSatisfy { $0 == 255 } && bright.u.samples.allSatisfy { $0 < 128 })
        // Defaults: dark red (Cr > 128) to a warm near-white.
        let defaults = try effect("falseColor")
        let low = Frame.filled(width: 2, height: 2, y: 10), high = Frame.filled(width: 2, height: 2, y: 245)
        defaults.apply(to: low)
        defaults.apply(to: high)
        #expect(low.v[0, 0] > 140 && low.y[0, 0] < 60)
        #expect(high.y[0, 0] > 200 && high.v[0, 0] >= 128 && high.u[0, 0] <= 128)
    }

    @Test("Monochrome keeps luma (±1) and tints in the colour's direction")
    func monochrome() throws {
        let filter = try effect("monochrome")
        for grey in [10, 64, 128, 200, 250] as [UInt8] {
            let frame = Frame.filled(width: 4, height: 4, y: grey)
            filter.apply(to: frame)
            #expect(abs(Int(frame.y[0, 0]) - Int(grey)) <= 1, "grey \(grey)")
            #expect(frame.u[0, 0] <= 128 && frame.v[0, 0] >= 128, "grey \(grey)")
        }
        let mid = Frame.filled(width: 2, height: 2, y: 128)
        filter.apply(to: mid)
        #expect(mid.u[0, 0] < 118 && mid.v[0, 0] > 138)
        // Half intensity lies between.
        let half = Frame.filled(width: 2, height: 2, y: 128)
        try effect("monochrome", ["intensity": 0.5]).apply(to: half)
        #expect(half.u[0, 0] > mid.u[0, 0] && half.u[0, 0] < 128)
        #expect(half.v[0, 0] < mid.v[0, 0] && half.v[0, 0] > 128)
    }

    @Test("Palette effects ignore input chroma; chroma follows the 2×2 mean luma",
          arguments: ["thermal", "falseColor", "xray", "monochrome"])
    func paletteChroma(name: String) throws {
        let filter = try effect(name)
        for size in sizes {
            let a = Frame.random(width: size.width, height: size.height, seed: 31)
            let b = Frame.random(width: size.width, height: size.height, seed: 32)
            b.y.copy(from: a.y)
            filter.apply(to: a)
            filter.apply(to: b)
            #expect(a.samples == b.samples, "\(size)")
        }
        let checker = Frame.filled(width: 6, height: 4, y: 100)
        for row in 0..<4 where row % 2 == 1 { checker.y.row(row).update(repeating: 156, count: 6) }
        let grey = Frame.filled(width: 6, height: 4, y: 128)
        filter.apply(to: checker)
        filter.apply(to: grey)
        #expect(checker.u.samples == grey.u.samples && checker.v.samples == grey.v.samples)
    }

    @Test("X-ray inverts luma and tints blue")
    func xray() throws {
        let frame = ramp()
        try effect("xray").apply(to: frame)
        let luma = (0..<256).map { frame.y[$0, 0] }
        #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 >= $1 })
        #expect(luma[0] > 220 && luma[255] < 30)
        let mid = Frame.filled(width: 2, height: 2, y: 128)
        try effect("xray").apply(to: mid)
        #expect(mid.u[0, 0] > 128 && mid.v[0, 0] < 128)
    }

    @Test("Fade, chrome and instant: lifted blacks, bounded change, expected tint",
          arguments: ["fade", "chrome", "instant"])
    func photoEffects(name: String) throws {
        let filter = try effect(name)
        let black = Frame.filled(width: 3, height: 3, y: 0)
        filter.apply(to: black)
        #expect(black.y[0, 0] >= 8)
        let frame = ramp()
        filter.apply(to: frame)
        let luma = (0..<256).map { frame.y[$0, 0] }
        #expect(zip(luma, luma.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(luma[255] <= 252 && luma[255] >= 220)
        let tint = (Int(frame.u[0, 0]) - 128, Int(frame.v[0, 0]) - 128)
        switch name {
        case "chrome": #expect(tint.0 > 0 && tint.1 < 0, "cool: \(tint)")
        default: #expect(tint.0 < 0 && tint.1 > 0, "warm: \(tint)")
        }
        // Saturation: fade and instant pull chroma towards 128, chrome pushes it away.
        let colourful = Frame.filled(width: 2, height: 2, y: 128, u: 60, v: 200)
        filter.apply(to: colourful)
        let spread = abs(Int(colourful.u[0, 0]) - 128) + abs(Int(colourful.v[0, 0]) - 128)
        if name == "chrome" { #expect(spread > 68 + 72) } else { #expect(spread < 68 + 72) }
    }

    @Test("Every colour effect handles every small size and repeats deterministically",
          arguments: ["invert", "mono", "noir", "monochrome", "posterize", "thermal", "falseColor", "xray",
                      "fade", "chrome", "instant"])
    func sizesAndDeterminism(name: String) throws {
        for size in sizes + [Size(3, 1), Size(1, 4)] {
            let a = Frame.random(width: size.width, height: size.height, seed: 77)
            let b = a.clone()
            try effect(name).apply(to: a)
            try effect(name).apply(to: b)
            #expect(a.samples == b.samples, "\(name) \(size)")
        }
    }
}
