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

    /// The cell filters' centre has no identity, so they are not in `identitySettings`: at the
    /// identity of their size parameter (the minimum, 1) any centre leaves frames unchanged, even
    /// where one 1080p pixel is more than one pixel.
    @Test("Cell filters at their smallest size leave frames unchanged whatever the centre",
          arguments: ["hexagonalPixellate", "crystallize", "pointillize"],
          [Size(17, 11), Size(2, 2), Size(1, 1), Size(5, 2160), Size(3, 4321)])
    func cellFiltersAtTheirSmallestSize(name: String, size: Size) throws {
        let descriptor = try #require(FilterCatalog.standard.descriptor(named: name))
        let length = try #require(descriptor.params.first { $0.identity != nil })
        #expect(length.identity == length.min && length.name != "centerX")
        for (x, y) in [(0.5, 0.5), (0, 1), (0.13, 0.71)] {
            let original = Frame.random(width: size.width, height: size.height, seed: 4)
            let frame = original.clone()
            let values = [length.name: length.identity!, "centerX": x, "centerY": y]
            FilterCatalog.standard.makeFilter(try settings(name, values)).apply(to: frame)
            #expect(frame.samples == original.samples, "\(name) at \(values) on \(size)")
            // One step up does change a frame of 1080 lines or more.
            guard size.height >= 1080 else { continue }
            FilterCatalog.standard.makeFilter(try settings(name, [length.name: length.identity! + length.step])).apply(to: frame)
            #expect(frame.samples != original.samples, "\(name) one step above its identity on \(size)")
        }
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
