/// CIPointillize: the picture as round dots on a white background. The dots are discs of
/// `radius` around the feature points of crystallize's jittered grid (``JitteredGrid``, spacing
/// twice the radius, a square centred on (`centerX`, `centerY`)); where two discs overlap the
/// nearer point's wins. Each dot takes the mean colour of the input under it (see
/// ``CellPainter``; Core Image takes the colour at the dot's centre); the background, about a
/// quarter of the picture, is white (Y 255, Cb = Cr = 128), like paper showing between the dots.
///
/// `radius` is in pixels of a 1080-line frame. Radius 1, the minimum, and radii under one pixel
/// of the frame leave the picture unchanged.
public final class PointillizeFilter: CellFilter {
    public static let descriptor = FilterDescriptor.cells(name: "pointillize", label: "Pointillize",
                                                          lengthName: "radius", lengthLabel: "Radius", default: 20)
    let painter: CellPainter

    public init(settings: FilterSettings) {
        painter = CellPainter(settings, length: "radius", background: (255, 128, 128))
    }

    func layout(length: Double, origin: (x: Double, y: Double), for frame: Frame) -> some CellLayout {
        JitteredGrid(spacing: 2 * length, origin: origin, discRadius: length, width: frame.width, height: frame.height)
    }
}
