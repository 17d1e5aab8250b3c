/// Thermal camera false colour: luma runs through black → blue → magenta → red → yellow → white.
public final class ThermalFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "thermal", label: "Thermal", category: .colorEffect, params: [])

    /// The palette's stops, evenly spaced over 0…1.
    static let stops: [(r: Double, g: Double, b: Double)] = [
        (0, 0, 0), (0, 0, 1), (1, 0, 1), (1, 0, 0), (1, 1, 0), (1, 1, 1),
    ]

    private let palette: LumaPalette

    public init(settings: FilterSettings) {
        palette = LumaPalette { grey in
            let position = grey * Double(Self.stops.count - 1)
            let i = min(Self.stops.count - 2, Int(position)), t = position - Double(i)
            let a = Self.stops[i], b = Self.stops[i + 1]
            return (a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
        }
    }

    public func apply(to frame: Frame) { palette.apply(to: frame) }
}
