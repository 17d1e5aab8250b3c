import Testing
import FilterKit

/// Every filter whose parameters all have an identity value must leave frames untouched,
/// byte for byte, at those values.
@Suite("Identity settings")
struct IdentityTests {
    /// Settings at the identity of every parameter, for each filter that has one ("none", and
    /// the filters whose parameters all have an identity; a filter without parameters, like
    /// invert, always changes the picture).
    static let identitySettings: [FilterSettings] = FilterCatalog.standard.descriptors.compactMap { descriptor in
        guard descriptor.name == "none" || !descriptor.params.isEmpty else { return nil }
        var values: [String: Double] = [:]
        for parameter in descriptor.params {
            guard let identity = parameter.identity else { return nil }
            values[parameter.name] = identity
        }
        return try? FilterSettings(name: descriptor.name, parameters: values)
    }

    /// Filters with shape parameters that have no identity (a position, a size) at the identity of
    /// their strength, with those parameters at their defaults and at other values.
    static let shapedIdentities: [FilterSettings] = [
        ("twirl", ["angle": 0]), ("twirl", ["angle": 0, "radius": 4000, "centerX": 0, "centerY": 1]),
        ("twirl", ["radius": 0]), ("twirl", ["angle": 25, "radius": 0, "centerX": 0.2]),
        ("bump", ["scale": 0]), ("bump", ["scale": 0, "radius": 900, "centerX": 1, "centerY": 0.3]),
        ("bump", ["scale": -1, "radius": 0]),
        ("pinch", ["scale": 0]), ("pinch", ["scale": 0, "radius": 2000, "centerY": 0]), ("pinch", ["scale": 2, "radius": 0]),
        ("motionBlur", ["radius": 0]), ("motionBlur", ["radius": 0, "angle": 2]), ("motionBlur", ["radius": 0, "angle": -1.3]),
    ].map { try! FilterSettings(name: $0.0, parameters: $0.1) }

    @Test("The standard filters with an identity: none, the colour adjustments, sepia, the blurs, pixellate, bloom, gloom")
    func identityFilters() throws {
        #expect(Self.identitySettings.map(\.name) == ["none", "colorControls", "hueAdjust", "exposure", "gamma",
                                                      "vibrance", "temperature", "sepia", "gaussianBlur", "boxBlur",
                                                      "pixellate", "bloom", "gloom"])
        #expect(Self.identitySettings.contains(try settings("sepia", ["intensity": 0])))
        #expect(Self.identitySettings.contains(try settings("pixellate", ["scale": 1])))
    }

    @Test("Identity settings leave random frames unchanged",
          arguments: identitySettings + shapedIdentities, [Size(17, 11), Size(8, 8), Size(7, 5), Size(1, 1), Size(2, 3), Size(64, 36)])
    func identityLeavesFramesUnchanged(settings: FilterSettings, size: Size) {
        let filter = FilterCatalog.standard.makeFilter(settings)
        for seed in [1, 2, 3] as [UInt64] {
            let original = Frame.random(width: size.width, height: size.height, seed: seed)
            let frame = original.clone()
            filter.apply(to: frame)
            #expect(frame.samples == original.samples, "\(settings) on \(size), seed \(seed)")
            // Applying again on the same instance too.
            filter.apply(to: frame)
            #expect(frame.samples == original.samples)
        }
    }

    @Test("Identity settings leave every 8-bit value unchanged", arguments: identitySettings + shapedIdentities)
    func identityOnAllValues(settings: FilterSettings) {
        // 32×16 luma holds 0…255 twice over; the 16×8 chroma planes hold 0…127 and 128…255.
        let frame = Frame(width: 32, height: 16)
        for y in 0..<16 { for x in 0..<32 { frame.y[x, y] = UInt8((y * 32 + x) % 256) } }
        for y in 0..<8 {
            for x in 0..<16 {
                frame.u[x, y] = UInt8(y * 16 + x)
                frame.v[x, y] = UInt8(255 - (y * 16 + x))
            }
        }
        let original = frame.clone()
        FilterCatalog.standard.makeFilter(settings).apply(to: frame)
        #expect(frame.samples == original.samples)
    }

    @Test("Non-identity settings do change frames (the identity tests can fail)")
    func nonIdentityChanges() throws {
        // Pixellate's scale is in 1080p pixels: the step next to its identity needs 1080 lines.
        let cases = [(try settings("sepia", ["intensity": 0.1]), Size(17, 11)),
                     (try settings("pixellate", ["scale": 2]), Size(17, 1080)), (try settings("comic"), Size(17, 11))]
        for (settings, size) in cases {
            let original = Frame.random(width: size.width, height: size.height, seed: 9)
            let frame = original.clone()
            FilterCatalog.standard.makeFilter(settings).apply(to: frame)
            #expect(frame.samples != original.samples, "\(settings)")
        }
    }
}
