/// CICrystallize: the picture as polygonal crystals — the Voronoi cells of feature points on a
/// jittered square grid (``JitteredGrid``: fixed pseudo-random offsets, so the crystals stay put
/// from frame to frame) — each of its mean colour (see ``CellPainter``; Core Image takes the
/// colour at the feature point instead). A grid square is centred on (`centerX`, `centerY`).
///
/// `radius`, in pixels of a 1080-line frame, is a crystal's typical radius: the grid spacing is
/// twice the radius. Radius 1, the minimum, and radii under one pixel of the frame leave the
/// picture unchanged.
public final class CrystallizeFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor.cells(name: "crystallize", label: "Crystallize",
                                                          lengthName: "radius", lengthLabel: "Radius", default: 20)
    private let painter: CellPainter

    public static var buildsTablesOnFirstFrame: Bool { true }

    public init(settings: FilterSettings) {
        painter = CellPainter(settings, length: "radius")
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        painter.preparePasses(for: frame, parts: parts) { radius, origin in
            JitteredGrid(spacing: 2 * radius, origin: origin, width: frame.width, height: frame.height)
        }
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        painter.run(pass: pass, part: part, of: parts, on: frame)
    }
}
