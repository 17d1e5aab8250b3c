/// CIColorInvert: every sample becomes 255 − sample on all three planes — in full-range YUV this
/// is exactly the RGB inversion (and FFmpeg's `negate`).
public final class InvertFilter: RowLocalFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor(name: "invert", label: "Invert", category: .colorEffect, params: [])

    public init(settings: FilterSettings) {}

    public func apply(to frame: Frame) {
        invert(frame.y)
        invert(frame.u)
        invert(frame.v)
    }

    private func invert(_ plane: Plane) {
        let width = plane.width
        for y in 0..<plane.height {
            let row = plane.row(y)
            for x in 0..<width { row[x] = ~row[x] }
        }
    }
}
