/// CIHexagonalPixellate: the picture as regular hexagons (``HexagonalLattice``), each of its mean
/// colour (see ``CellPainter``), one hexagon centred on (`centerX`, `centerY`).
///
/// `scale` is the distance between neighbouring hexagon centres (the width across the flat
/// sides) in pixels of a 1080-line frame. Scale 1, the minimum, and scales under one pixel of
/// the frame leave the picture unchanged.
public final class HexagonalPixellateFilter: PassFilter, StandaloneFilter {
    public static let descriptor = FilterDescriptor.cells(name: "hexagonalPixellate", label: "Hexagonal Pixellate",
                                                          lengthName: "scale", lengthLabel: "Scale", default: 8)
    private let painter: CellPainter

    public static var buildsTablesOnFirstFrame: Bool { true }

    public init(settings: FilterSettings) {
        painter = CellPainter(settings, length: "scale")
    }

    public func preparePasses(for frame: Frame, parts: Int) -> Int {
        painter.preparePasses(for: frame, parts: parts) { scale, origin in
            HexagonalLattice(spacing: scale, origin: origin, width: frame.width, height: frame.height)
        }
    }

    public func run(pass: Int, part: Int, of parts: Int, on frame: Frame) {
        painter.run(pass: pass, part: part, of: parts, on: frame)
    }
}
