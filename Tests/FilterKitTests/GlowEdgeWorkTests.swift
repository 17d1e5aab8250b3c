import Testing
@testable import FilterKit

/// bloom, gloom and edgeWork: each mixes the luma with a Gaussian blur computed at half resolution.
@Suite("Bloom, gloom and edge work")
struct GlowEdgeWorkTests {
    static func filter(_ name: String, _ parameters: [String: Double] = [:]) throws -> any FrameFilter {
        FilterCatalog.standard.makeFilter(try settings(name, parameters))
    }

    @Test("The half-resolution blur keeps a ramp in place (no half-pixel shift) and a flat frame flat")
    func halfResolutionBlur() {
        let frame = Frame.filled(width: 255, height: 41, y: 0)
        for y in 0..<41 { for x in 0..<255 { frame.y[x, y] = UInt8(x) } }
        let blur = HalfResolutionBlur()
        /// The blur's passes on `frame` as one part.
        func prepare(_ frame: Frame, sigma: Double) {
            blur.preparePasses(for: frame, sigma: sigma, parts: 1)
            for pass in 0..<HalfResolutionBlur.passes { blur.run(pass: pass, part: 0, of: 1, on: frame) }
        }
        prepare(frame, sigma: 6)
        for y in [0, 1, 20, 39, 40] {
            let row = blur.row(y, part: 0)
            // Away from the clamped ends, a linear ramp is its own blur.
            for x in 30..<225 { #expect(abs(Int(row[x]) - x) <= 1, "(\(x), \(y)): \(row[x])") }
        }
        let flat = Frame.filled(width: 17, height: 9, y: 77)
        prepare(flat, sigma: 3)
        for y in 0..<9 {
            #expect(Array(UnsafeBufferPointer(start: blur.row(y, part: 0), count: 17)) == Array(repeating: 77, count: 17))
        }
    }

    @Test("Intensity 0 or radius 0 give the input back bit-exact",
          arguments: ["bloom", "gloom"], [["intensity": 0, "radius": 100], ["intensity": 1, "radius": 0], ["intensity": 0]])
    func identities(name: String, parameters: [String: Double]) throws {
        let filter = try Self.filter(name, parameters)
        for size in Size.testSizes + [Size(64, 36)] {
            let original = Frame.random(width: size.width, height: size.height, seed: 6)
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(frame.samples == original.samples, "\(name) \(parameters) \(size)")
        }
    }

    /// A white square on grey: bloom only brightens (towards the blur, never past it) and only near
    /// the square; gloom only darkens, the square (most at its edge); chroma is untouched.
    @Test("Bloom spreads highlights outwards, gloom dulls them; more intensity, more effect")
    func glow() throws {
        let original = Frame.filled(width: 96, height: 96, y: 60, u: 100, v: 150)
        for y in 40..<56 { for x in 40..<56 { original.y[x, y] = 250 } }
        var previous: (bloom: [UInt8], gloom: [UInt8]) = (original.y.samples, original.y.samples)
        for intensity in [0.25, 0.5, 1] {
            let bloom = original.clone(), gloom = original.clone()
            // Radius 8 at 96 lines is 90 in 1080p pixels.
            try Self.filter("bloom", ["radius": 90, "intensity": intensity]).apply(to: bloom)
            try Self.filter("gloom", ["radius": 90, "intensity": intensity]).apply(to: gloom)
            #expect(bloom.u.samples == original.u.samples && gloom.v.samples == original.v.samples)
            let (b, g, o) = (bloom.y.samples, gloom.y.samples, original.y.samples)
            #expect(zip(b, o).allSatisfy { $0 >= $1 } && zip(g, o).allSatisfy { $0 <= $1 })
            #expect(zip(b, previous.bloom).allSatisfy { $0 >= $1 } && zip(g, previous.gloom).allSatisfy { $0 <= $1 })
            #expect(bloom.y[38, 48] > 60 && bloom.y[48, 36] > 60, "glow just outside the square")
            #expect(bloom.y[5, 5] == 60 && bloom.y[48, 48] == 250, "far away and inside: unchanged")
            #expect(gloom.y[48, 48] < 250 && gloom.y[40, 48] < gloom.y[48, 48] && gloom.y[30, 48] == 60,
                    "the square dulled, most at its edge; the grey around unchanged")
            previous = (b, g)
        }
        #expect(previous.bloom != original.y.samples && previous.gloom != original.y.samples)
    }

    @Test("Edge work inks dark details and the dark side of edges, paper elsewhere; radius 0 is all paper")
    func edgeWork() throws {
        let height = 216
        let original = Frame.filled(width: 64, height: height, y: 200, u: 90, v: 170)
        for y in 0..<height { original.y[20, y] = 40 }                          // a dark line
        for y in 0..<height { for x in 40..<64 { original.y[x, y] = 120 } }     // a darker half
        let frame = original.clone()
        // Radius 2 at 216 lines is 10 in 1080p pixels.
        try Self.filter("edgeWork", ["radius": 10]).apply(to: frame)
        #expect(frame.u.samples.allSatisfy { $0 == 128 } && frame.v.samples.allSatisfy { $0 == 128 })
        #expect(frame.y.samples.allSatisfy { $0 == 0 || $0 == 255 })
        for y in 0..<height {
            #expect(frame.y[20, y] == 0 && frame.y[10, y] == 255 && frame.y[30, y] == 255, "row \(y)")
            #expect(frame.y[40, y] == 0 && frame.y[39, y] == 255 && frame.y[56, y] == 255, "row \(y)")
        }
        let flat = original.clone()
        try Self.filter("edgeWork", ["radius": 0]).apply(to: flat)
        #expect(flat.y.samples.allSatisfy { $0 == 255 })
    }
}
