/// CIBloom: softens edges and lets bright areas glow into their darker surroundings (see
/// ``LumaGlow``). Intensity 0 or radius 0 give the input back.
public final class BloomFilter: ForwardingPassFilter, StandaloneFilter {
    public static let descriptor = LumaGlow.descriptor(name: "bloom", label: "Bloom")
    public let passes: FilterPasses

    public init(settings: FilterSettings) { passes = FilterPasses(LumaGlow(settings: settings, brightens: true)) }
}
