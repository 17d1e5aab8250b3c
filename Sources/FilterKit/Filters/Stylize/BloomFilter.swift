/// CIBloom: softens edges and lets bright areas glow into their darker surroundings (see
/// ``LumaGlow``). Intensity 0 or radius 0 give the input back.
public final class BloomFilter: FrameFilter {
    public static let descriptor = LumaGlow.descriptor(name: "bloom", label: "Bloom")
    private let glow: LumaGlow

    public init(settings: FilterSettings) { glow = LumaGlow(settings: settings, brightens: true) }

    public func apply(to frame: Frame) { glow.apply(to: frame) }
}
