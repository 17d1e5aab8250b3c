/// X-ray: inverted greyscale with a cold blue tint (blue kept, red and green scaled down).
public final class XRayFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "xray", label: "X-Ray", category: .colorEffect, params: [])

    private let palette: LumaPalette

    public init(settings: FilterSettings) {
        palette = LumaPalette { grey in
            let v = 0.06 + 0.94 * (1 - grey)
            return (0.8 * v, 0.9 * v, v)
        }
    }

    public func apply(to frame: Frame) { palette.apply(to: frame) }
}
