/// CIPhotoEffectChrome (approximation): slightly lifted blacks, more saturation, cool tint.
public final class ChromeFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "chrome", label: "Chrome", category: .colorEffect, params: [])

    private let tables = PhotoEffectTables(black: 10, white: 250, saturation: 1.25, cbShift: 3, crShift: -2)

    public init(settings: FilterSettings) {}

    public func apply(to frame: Frame) { tables.apply(to: frame) }
}
