/// CIPhotoEffectFade (approximation): lifted blacks, lower contrast, desaturated, faintly warm.
public final class FadeFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "fade", label: "Fade", category: .colorEffect, params: [])

    private let tables = PhotoEffectTables(black: 36, white: 232, saturation: 0.6, cbShift: -3, crShift: 3)

    public init(settings: FilterSettings) {}

    public func apply(to frame: Frame) { tables.apply(to: frame) }
}
