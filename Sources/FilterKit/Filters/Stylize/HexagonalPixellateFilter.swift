/// CIHexagonalPixellate: the picture as regular hexagons (``HexagonalLattice``), each of its mean
/// colour (see ``CellPainter``), one hexagon centred on (`centerX`, `centerY`).
///
/// `scale` is the distance between neighbouring hexagon centres (the width across the flat
/// sides) in pixels of a 1080-line frame. Scale 1, the minimum, and scales under one pixel of
/// the frame leave the picture unchanged.
public final class HexagonalPixellateFilter: CellFilter {
    public static let descriptor = FilterDescriptor.cells(name: "hexagonalPixellate", label: "Hexagonal Pixellate",
                                                          lengthName: "scale", lengthLabel: "Scale", default: 8)
    let painter: CellPainter

    public init(settings: FilterSettings) {
        painter = CellPainter(settings, length: "scale")
    }

    func layout(length: Double, origin: (x: Double, y: Double), for frame: Frame) -> some CellLayout {
        HexagonalLattice(spacing: length, origin: origin, width: frame.width, height: frame.height)
    }
}
