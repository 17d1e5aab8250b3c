import Foundation
import Testing
import FilterKit

/// The colour adjustments, in a catalog of their own (the standard catalog registers them
/// separately).
private let colorCatalog = FilterCatalog([
    .init(ColorControlsFilter.self), .init(HueAdjustFilter.self), .init(ExposureFilter.self),
    .init(GammaFilter.self), .init(VibranceFilter.self), .init(TemperatureFilter.self),
])

/// `name` with `parameters` and every other parameter at its identity — not at its default,
/// which changes the picture (see DefaultsTests) — so that a test sees only what it sets.
private func make(_ name: String, _ parameters: [String: Double] = [:]) throws -> any FrameFilter {
    let neutral = colorCatalog.descriptor(named: name)?.params.compactMap { p in p.identity.map { (p.name, $0) } } ?? []
    let values = Dictionary(uniqueKeysWithValues: neutral).merging(parameters) { $1 }
    return colorCatalog.makeFilter(try FilterSettings(name: name, parameters: values, catalog: colorCatalog))
}

/// `filter` applied to a uniform frame of (y, u, v); returns the (single) output values,
/// checking that the frame stayed uniform.
private func applyUniform(_ filter: any FrameFilter, y: UInt8, u: UInt8 = 128, v: UInt8 = 128,
                          size: Size = Size(7, 5)) -> (y: Int, u: Int, v: Int) {
    let frame = Frame.filled(width: size.width, height: size.height, y: y, u: u, v: v)
    filter.apply(to: frame)
    let out = (y: frame.y[0, 0], u: frame.u[0, 0], v: frame.v[0, 0])
    #expect(frame.y.samples.allSatisfy { $0 == out.y } && frame.u.samples.allSatisfy { $0 == out.u }
        && frame.v.samples.allSatisfy { $0 == out.v }, "uniform input gave a non-uniform output")
    return (Int(out.y), Int(out.u), Int(out.v))
}

@Suite("Color adjustment filters")
struct ColorAdjustmentTests {
    // MARK: Catalog entries

    @Test("Names, categories, parameters, defaults and ranges as in Core Image")
    func descriptors() {
        #expect(colorCatalog.names == ["colorControls", "hueAdjust", "exposure", "gamma", "vibrance", "temperature"])
        #expect(colorCatalog.descriptors.allSatisfy { $0.category == .colorAdjustment })
        func range(_ filter: String, _ parameter: String) -> [Double]? {
            guard let p = colorCatalog.descriptor(named: filter)?.parameter(named: parameter) else { return nil }
            return [p.default, p.min, p.max]
        }
        // Ranges as in Core Image; defaults that show a change when the filter is picked (Core
        // Image's own for exposure and gamma; its colour controls and hue default to no change).
        #expect(range("colorControls", "saturation") == [1.5, 0, 2])
        #expect(range("colorControls", "brightness") == [0, -1, 1])
        #expect(range("colorControls", "contrast") == [1.2, 0.25, 4])
        #expect(range("hueAdjust", "angle") == [1, -Double.pi, Double.pi])
        #expect(colorCatalog.descriptor(named: "hueAdjust")?.parameter(named: "angle")?.type == .angle)
        #expect(range("exposure", "ev") == [0.5, -10, 10])
        #expect(range("gamma", "power") == [0.75, 0.25, 4])
        #expect(range("vibrance", "amount") == [0.6, -1, 1])
        #expect(range("temperature", "temperature") == [0.3, -1, 1])
    }

    struct Rejected: Sendable, CustomStringConvertible {
        let filter: String, parameter: String, value: Double
        var description: String { "\(filter).\(parameter)=\(value)" }
    }

    @Test("Non-finite and out-of-range values are rejected", arguments: [
        Rejected(filter: "colorControls", parameter: "saturation", value: .nan),
        Rejected(filter: "colorControls", parameter: "saturation", value: -0.01),
        Rejected(filter: "colorControls", parameter: "saturation", value: 2.01),
        Rejected(filter: "colorControls", parameter: "brightness", value: -1.5),
        Rejected(filter: "colorControls", parameter: "brightness", value: .infinity),
        Rejected(filter: "colorControls", parameter: "contrast", value: 0.2),
        Rejected(filter: "colorControls", parameter: "contrast", value: 4.5),
        Rejected(filter: "hueAdjust", parameter: "angle", value: 3.2),
        Rejected(filter: "hueAdjust", parameter: "angle", value: -3.2),
        Rejected(filter: "hueAdjust", parameter: "angle", value: .nan),
        Rejected(filter: "exposure", parameter: "ev", value: 10.5),
        Rejected(filter: "exposure", parameter: "ev", value: -.infinity),
        Rejected(filter: "gamma", parameter: "power", value: 0),
        Rejected(filter: "gamma", parameter: "power", value: 5),
        Rejected(filter: "gamma", parameter: "power", value: .nan),
        Rejected(filter: "vibrance", parameter: "amount", value: 1.01),
        Rejected(filter: "vibrance", parameter: "amount", value: .nan),
        Rejected(filter: "temperature", parameter: "temperature", value: -1.01),
        Rejected(filter: "temperature", parameter: "temperature", value: .nan),
    ])
    func rejected(_ case_: Rejected) {
        #expect(throws: FilterError.self) {
            try FilterSettings(name: case_.filter, parameters: [case_.parameter: case_.value], catalog: colorCatalog)
        }
    }

    @Test("Range ends and an unknown parameter")
    func rangeEnds() throws {
        for descriptor in colorCatalog.descriptors {
            for p in descriptor.params {
                _ = try FilterSettings(name: descriptor.name, parameters: [p.name: p.min], catalog: colorCatalog)
                _ = try FilterSettings(name: descriptor.name, parameters: [p.name: p.max], catalog: colorCatalog)
            }
            #expect(throws: FilterError.self) {
                try FilterSettings(name: descriptor.name, parameters: ["intensity": 0.5], catalog: colorCatalog)
            }
        }
    }

    // MARK: Identity

    /// Each filter at the identity of every parameter (all of them have one).
    static let identitySettings: [FilterSettings] = colorCatalog.descriptors.map { descriptor in
        var values: [String: Double] = [:]
        for parameter in descriptor.params { values[parameter.name] = parameter.identity! }
        return try! FilterSettings(name: descriptor.name, parameters: values, catalog: colorCatalog)
    }

    @Test("Every parameter has an identity")
    func everyParameterHasAnIdentity() throws {
        for descriptor in colorCatalog.descriptors {
            for p in descriptor.params { #expect(p.identity != nil, "\(descriptor.name).\(p.name)") }
        }
        #expect(Self.identitySettings.count == 6)
    }

    // Bit-exact identity on random frames and on every 8-bit value: IdentityTests covers every
    // filter of the standard catalog, these included.

    @Test("Non-identity settings do change random frames", arguments: [
        ("colorControls", ["saturation": 0.9]), ("colorControls", ["brightness": 0.05]),
        ("colorControls", ["contrast": 1.1]), ("hueAdjust", ["angle": 0.1]), ("exposure", ["ev": 0.2]),
        ("gamma", ["power": 1.1]), ("vibrance", ["amount": 0.2]), ("temperature", ["temperature": 0.1]),
    ] as [(String, [String: Double])])
    func nonIdentityChanges(name: String, parameters: [String: Double]) throws {
        let original = Frame.random(width: 17, height: 11, seed: 9)
        let frame = original.clone()
        try make(name, parameters).apply(to: frame)
        #expect(frame.samples != original.samples)
    }

    // MARK: Neutral greys

    @Test("Greys stay neutral", arguments: [
        ("colorControls", ["saturation": 2, "brightness": 0.3, "contrast": 3]),
        ("colorControls", ["saturation": 0, "brightness": -0.7, "contrast": 0.25]),
        ("hueAdjust", ["angle": 2]), ("hueAdjust", ["angle": -Double.pi]),
        ("exposure", ["ev": 3]), ("exposure", ["ev": -10]), ("exposure", ["ev": 10]),
        ("gamma", ["power": 0.25]), ("gamma", ["power": 4]),
        ("vibrance", ["amount": 1]), ("vibrance", ["amount": -1]),
    ] as [(String, [String: Double])])
    func neutral(name: String, parameters: [String: Double]) throws {
        let filter = try make(name, parameters)
        for grey in [0, 1, 64, 128, 200, 255] as [UInt8] {
            let out = applyUniform(filter, y: grey, size: Size(17, 11))
            #expect(out.u == 128 && out.v == 128, "\(name) \(parameters) grey \(grey): \(out)")
        }
    }

    // MARK: Known values

    @Test("colorControls: saturation 0 sets chroma to 128 everywhere, luma untouched")
    func desaturate() throws {
        let original = Frame.random(width: 17, height: 11, seed: 4)
        let frame = original.clone()
        try make("colorControls", ["saturation": 0]).apply(to: frame)
        #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 })
        #expect(frame.y.samples == original.y.samples)
    }

    @Test("colorControls: saturation 2 doubles chroma deviations, clamped")
    func saturate() throws {
        let filter = try make("colorControls", ["saturation": 2])
        #expect(applyUniform(filter, y: 90, u: 138, v: 100) == (90, 148, 72))
        #expect(applyUniform(filter, y: 90, u: 250, v: 10) == (90, 255, 0))
    }

    @Test("colorControls: brightness adds 255·brightness to luma, clamped", arguments: [0, 50, 128, 127, 200, 255])
    func brightness(grey: Int) throws {
        let up = applyUniform(try make("colorControls", ["brightness": 0.5]), y: UInt8(grey))
        #expect(abs(up.y - min(255, grey + 128)) <= 1, "\(grey) → \(up.y)")
        let down = applyUniform(try make("colorControls", ["brightness": -0.5]), y: UInt8(grey))
        #expect(abs(down.y - max(0, grey - 128)) <= 1, "\(grey) → \(down.y)")
        #expect(applyUniform(try make("colorControls", ["brightness": 1]), y: UInt8(grey)).y == 255)
        #expect(applyUniform(try make("colorControls", ["brightness": -1]), y: UInt8(grey)).y == 0)
    }

    @Test("colorControls: contrast scales luma around mid-grey")
    func contrast() throws {
        let double = try make("colorControls", ["contrast": 2])
        #expect(applyUniform(double, y: 128).y == 128)
        #expect(applyUniform(double, y: 100).y == 72)
        #expect(applyUniform(double, y: 150).y == 172)
        #expect(applyUniform(double, y: 10).y == 0)
        #expect(applyUniform(double, y: 250).y == 255)
        let quarter = try make("colorControls", ["contrast": 0.25])
        #expect(applyUniform(quarter, y: 0).y == 96)
        #expect(applyUniform(quarter, y: 255).y == 160)
    }

    @Test("hueAdjust: π negates chroma deviations (±1), luma untouched")
    func huePi() throws {
        for angle in [Double.pi, -Double.pi] {
            let original = Frame.random(width: 17, height: 11, seed: 5)
            let frame = original.clone()
            try make("hueAdjust", ["angle": angle]).apply(to: frame)
            #expect(frame.y.samples == original.y.samples)
            for (plane, before) in [(frame.u, original.u), (frame.v, original.v)] {
                for (a, b) in zip(plane.samples, before.samples) {
                    let expected = min(255, 256 - Int(b))
                    #expect(abs(Int(a) - expected) <= 1, "\(b) → \(a)")
                }
            }
        }
    }

    @Test("hueAdjust: π/2 turns (Cb, Cr) deviation (d, 0) into (0, d) and keeps the magnitude")
    func hueQuarter() throws {
        let filter = try make("hueAdjust", ["angle": Double.pi / 2])
        let out = applyUniform(filter, y: 100, u: 168, v: 128)
        #expect(out.y == 100 && out.u == 128 && out.v == 168)
        let back = applyUniform(try make("hueAdjust", ["angle": -Double.pi / 2]), y: 100, u: 128, v: 168)
        #expect(back.u == 168 && back.v == 128)
        // A rotation by any angle keeps |deviation| within rounding.
        let turned = applyUniform(try make("hueAdjust", ["angle": 0.7]), y: 100, u: 158, v: 88)
        let before = (30.0 * 30 + 40 * 40).squareRoot()
        let after = (Double((turned.u - 128) * (turned.u - 128) + (turned.v - 128) * (turned.v - 128))).squareRoot()
        #expect(abs(after - before) <= 1.5)
    }

    @Test("exposure: +1 brightens, −1 darkens, monotonic in EV and in luma")
    func exposure() throws {
        let evs: [Double] = [-10, -2, -1, -0.5, 0, 0.5, 1, 2, 10]
        let filters = try evs.map { try make("exposure", ["ev": $0]) }
        for grey in [10, 64, 128, 200] as [UInt8] {
            let lumas = filters.map { applyUniform($0, y: grey).y }
            #expect(zip(lumas, lumas.dropFirst()).allSatisfy { $0 <= $1 }, "grey \(grey): \(lumas)")
            #expect(lumas[2] < Int(grey) && lumas[6] > Int(grey), "grey \(grey): \(lumas)")
        }
        // One stop brighter: linear light doubles (sRGB mid-grey 128 → ~174; 64 → ~88).
        let plus = filters[6], minus = filters[2]
        #expect(abs(applyUniform(plus, y: 128).y - 174) <= 2)
        #expect(abs(applyUniform(minus, y: 174).y - 128) <= 2)
        #expect(applyUniform(filters[0], y: 255).y <= 3)
        #expect(applyUniform(filters[8], y: 20).y == 255)
        for filter in filters {
            let frame = Frame(width: 256, height: 1)
            for x in 0..<256 { frame.y[x, 0] = UInt8(x) }
            filter.apply(to: frame)
            let lumas = frame.y.samples
            #expect(zip(lumas, lumas.dropFirst()).allSatisfy { $0 <= $1 })
        }
        // Chroma scales with the brightness at mid-grey: more colour up, less down.
        #expect(applyUniform(plus, y: 128, u: 148, v: 108).u > 148)
        #expect(applyUniform(minus, y: 128, u: 148, v: 108).u < 148)
        let dark = applyUniform(filters[0], y: 128, u: 200, v: 50)
        #expect(dark.y <= 1 && dark.u == 128 && dark.v == 128, "\(dark)")
    }

    @Test("gamma: 2 maps 128 to ~64, 0.5 maps 64 to ~128; ends fixed; chroma untouched")
    func gamma() throws {
        let two = try make("gamma", ["power": 2]), half = try make("gamma", ["power": 0.5])
        #expect(abs(applyUniform(two, y: 128).y - 64) <= 1)
        #expect(abs(applyUniform(half, y: 64).y - 128) <= 1)
        for filter in [two, half, try make("gamma", ["power": 4]), try make("gamma", ["power": 0.25])] {
            #expect(applyUniform(filter, y: 0).y == 0)
            #expect(applyUniform(filter, y: 255).y == 255)
            #expect(applyUniform(filter, y: 77, u: 3, v: 250).u == 3)
        }
    }

    @Test("vibrance: muted colours gain more than saturated ones; −1 lowers saturation")
    func vibrance() throws {
        let up = try make("vibrance", ["amount": 1])
        // s = 20: factor 1 + 236/256 ≈ 1.92.
        let muted = applyUniform(up, y: 100, u: 138, v: 118)
        #expect(abs(muted.u - 147) <= 1 && abs(muted.v - 109) <= 1, "\(muted)")
        // s = 200: factor 1 + 56/256 ≈ 1.22.
        let vivid = applyUniform(up, y: 100, u: 228, v: 28)
        #expect(abs(vivid.u - 250) <= 1 && abs(vivid.v - 6) <= 1, "\(vivid)")
        // Fully saturated (s = 256) stays as it is.
        #expect(applyUniform(up, y: 100, u: 0, v: 0) == (100, 0, 0))
        let down = applyUniform(try make("vibrance", ["amount": -1]), y: 100, u: 138, v: 118)
        #expect(abs(down.u - 129) <= 1 && abs(down.v - 127) <= 1, "\(down)")
    }

    @Test("temperature: warm lowers Cb and raises Cr, cool the opposite; luma untouched")
    func temperature() throws {
        let warm = applyUniform(try make("temperature", ["temperature": 1]), y: 90)
        #expect(warm == (90, 96, 160))
        let cool = applyUniform(try make("temperature", ["temperature": -0.5]), y: 90)
        #expect(cool == (90, 144, 112))
        #expect(applyUniform(try make("temperature", ["temperature": 1]), y: 90, u: 10, v: 250) == (90, 0, 255))
    }
}

/// Every filter against a straightforward floating-point model of its definition, on random
/// frames of odd and even sizes: each sample within ±1.
@Suite("Color adjustment filters against a floating-point model")
struct ColorAdjustmentModelTests {
    typealias Model = (y: (Double) -> Double, chroma: (Double, Double) -> (Double, Double))

    static func srgbDecode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }
    static func srgbEncode(_ l: Double) -> Double { l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055 }

    static func model(_ name: String, _ p: [String: Double]) -> Model {
        switch name {
        case "colorControls":
            let s = p["saturation"] ?? 1, b = p["brightness"] ?? 0, c = p["contrast"] ?? 1
            return ({ ($0 + 255 * b - 128) * c + 128 }, { ($0 * s, $1 * s) })
        case "hueAdjust":
            let a = p["angle"] ?? 0
            return ({ $0 }, { (cos(a) * $0 - sin(a) * $1, sin(a) * $0 + cos(a) * $1) })
        case "exposure":
            let gain = pow(2, p["ev"] ?? 0)
            let exposed = { (y: Double) in 255 * srgbEncode(min(1, srgbDecode(y / 255) * gain)) }
            let ratio = min(2, max(0, exposed(128) / 128))
            return (exposed, { ($0 * ratio, $1 * ratio) })
        case "gamma":
            let power = p["power"] ?? 1
            return ({ 255 * pow($0 / 255, power) }, { ($0, $1) })
        case "vibrance":
            let amount = p["amount"] ?? 0
            return ({ $0 }, { cb, cr in
                let f = max(0, 1 + amount * (1 - (abs(cb) + abs(cr)) / 256))
                return (cb * f, cr * f)
            })
        case "temperature":
            let shift = 32 * (p["temperature"] ?? 0)
            return ({ $0 }, { ($0 - shift, $1 + shift) })
        default:
            preconditionFailure(name)
        }
    }

    static let cases: [(String, [String: Double])] = [
        ("colorControls", ["saturation": 1.4, "brightness": -0.2, "contrast": 1.7]),
        ("colorControls", ["saturation": 0.2, "brightness": 0.6, "contrast": 0.3]),
        ("hueAdjust", ["angle": 0.8]), ("hueAdjust", ["angle": -2.9]),
        ("exposure", ["ev": 1.3]), ("exposure", ["ev": -0.7]), ("exposure", ["ev": 9]),
        ("gamma", ["power": 0.3]), ("gamma", ["power": 3.3]),
        ("vibrance", ["amount": 0.8]), ("vibrance", ["amount": -0.6]),
        ("temperature", ["temperature": 0.7]), ("temperature", ["temperature": -0.33]),
    ]

    @Test("Each sample within ±1 of the model, sizes 1x1 to 641x361", arguments: cases)
    func matchesModel(name: String, parameters: [String: Double]) throws {
        let filter = try make(name, parameters)
        let model = Self.model(name, parameters)
        func clamped(_ v: Double) -> Int { Int(min(255, max(0, v.rounded()))) }
        for size in [Size(1, 1), Size(2, 2), Size(3, 3), Size(2, 3), Size(17, 11), Size(64, 36), Size(641, 361)] {
            let original = Frame.random(width: size.width, height: size.height, seed: 77)
            let frame = original.clone()
            filter.apply(to: frame)
            var worst = 0
            for (a, b) in zip(frame.y.samples, original.y.samples) {
                worst = max(worst, abs(Int(a) - clamped(model.y(Double(b)))))
            }
            let outU = frame.u.samples, outV = frame.v.samples
            for (i, (cb, cr)) in zip(original.u.samples, original.v.samples).enumerated() {
                let (mb, mr) = model.chroma(Double(cb) - 128, Double(cr) - 128)
                worst = max(worst, abs(Int(outU[i]) - clamped(mb + 128)), abs(Int(outV[i]) - clamped(mr + 128)))
            }
            #expect(worst <= 1, "\(name) \(parameters) on \(size): off by \(worst)")
        }
    }
}
