/// CICrystallize: the picture as polygonal crystals — the Voronoi cells of feature points on a
/// jittered square grid (``JitteredGrid``: fixed pseudo-random offsets, so the crystals stay put
/// from frame to frame) — each of its mean colour (see ``CellPainter``; Core Image takes the
/// colour at the feature point instead). A grid square is centred on (`centerX`, `centerY`).
///
/// `radius`, in pixels of a 1080-line frame, is a crystal's typical radius: the grid spacing is
/// twice the radius. Radius 1, the minimum, and radii under one pixel of the frame leave the
/// picture unchanged.
public final class CrystallizeFilter: CellFilter {
    public static let descriptor = FilterDescriptor.cells(name: "crystallize", label: "Crystallize",
                                                          lengthName: "radius", lengthLabel: "Radius", default: 20)
    let painter: CellPainter

    public init(settings: FilterSettings) {
        painter = CellPainter(settings, length: "radius")
    }

    func layout(length: Double, origin: (x: Double, y: Double), for frame: Frame) -> some CellLayout {
        JitteredGrid(spacing: 2 * length, origin: origin, width: frame.width, height: frame.height)
    }
}
