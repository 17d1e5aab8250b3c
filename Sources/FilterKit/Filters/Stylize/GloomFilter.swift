/// CIGloom: dulls the highlights, which take on the darkness of their surroundings (see
/// ``LumaGlow``). Intensity 0 or radius 0 give the input back.
public final class GloomFilter: FrameFilter {
    public static let descriptor = LumaGlow.descriptor(name: "gloom", label: "Gloom")
    private let glow: LumaGlow

    public init(settings: FilterSettings) { glow = LumaGlow(settings: settings, brightens: false) }

    public func apply(to frame: Frame) { glow.apply(to: frame) }
}
