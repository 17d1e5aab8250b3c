/// CIGloom: dulls the highlights, which take on the darkness of their surroundings (see
/// ``LumaGlow``). Intensity 0 or radius 0 give the input back.
public final class GloomFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = LumaGlow.descriptor(name: "gloom", label: "Gloom")
    public let passes: FilterPasses

    public init(settings: FilterSettings) { passes = FilterPasses(LumaGlow(settings: settings, brightens: false)) }
}
