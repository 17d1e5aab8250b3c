/// CIPhotoEffectInstant (approximation): lifted blacks, lower contrast, softer colour, warm
/// yellow tint.
public final class InstantFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "instant", label: "Instant", category: .colorEffect, params: [])

    private let tables = PhotoEffectTables(black: 24, white: 240, saturation: 0.8, cbShift: -8, crShift: 4)

    public init(settings: FilterSettings) {}

    public func apply(to frame: Frame) { tables.apply(to: frame) }
}
