/// CIGloom: dulls the highlights, which take on the darkness of their surroundings (see
/// ``LumaGlow``). Intensity 0 or radius 0 give the input back.
public final class GloomFilter: PassFilter {
    public static let descriptor = LumaGlow.descriptor(name: "gloom", label: "Gloom")
    private let glow: LumaGlow

    public init(settings: FilterSettings) { glow = LumaGlow(settings: settings, brightens: false) }

    public func preparePasses(for frame: Frame, parts: Int) -> Int { glow.preparePasses(for: frame, parts: parts) }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        glow.run(pass: pass, part: part, of: parts, on: frame)
    }
}
